import { PassThrough } from 'node:stream';

/** A writable stream that keeps what is written, for tests of what a terminal or a log would show. */
export function textSink() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += String(chunk)));
  return { stream, text: () => text };
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
