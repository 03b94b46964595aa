/**
 * A large file asked for compressed, to a real `felt serve` (node bin/felt.js serve) on 127.0.0.1. The site's own
 * files are small, but an operator's (a video, a PDF in content/static/) need not be, and any client may refuse the
 * bytes as they are (`Accept-Encoding: gzip, identity;q=0`). Before, such a file was read whole and compressed at
 * once on the event loop (kept only while it fit the 64 MB cache, and requests that came together each did it), so
 * a request for a 48 MB file held every other visitor for a second or more, with the file's size in memory: four at
 * once kept a visitor waiting 2.7 s here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { FELT_BIN, REPO } from '../support/cli.ts';
import { fixtureCopy } from '../site/helpers.ts';
import { httpRequest } from '../support/httpRequest.ts';
import { servedAt } from '../support/feltServe.ts';

let felt: ChildProcess;
let base: string;
let video: Buffer;

beforeAll(async () => {
  const content = await fixtureCopy();
  const dist = path.join(path.dirname(content), 'dist');
  await buildSite({ contentDir: content, outDir: dist });
  video = randomBytes(48 * 1024 * 1024);
  await writeFile(path.join(dist, 'video.mp4'), video);
  felt = spawn(process.execPath, [FELT_BIN, 'serve', '--dist', dist, '--port', '0'], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  base = await servedAt(felt);
}, 120_000);

afterAll(() => {
  felt?.kill();
});

/** A download of the file by a client that refuses it as it is; its length on the wire. */
function refusingIdentity(encoding: string): Promise<number> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: url.hostname, port: url.port, path: '/video.mp4', agent: false, headers: { 'Accept-Encoding': `${encoding}, identity;q=0` } },
        (response) => {
          let length = 0;
          response.on('data', (chunk: Buffer) => (length += chunk.length));
          response.on('end', () => resolve(length));
        },
      )
      .on('error', reject);
  });
}

describe('felt serve, a large file compressed', () => {
  it('keeps answering other visitors while four clients download a 48 MB file compressed', async () => {
    const downloads = [refusingIdentity('gzip'), refusingIdentity('gzip'), refusingIdentity('br'), refusingIdentity('br')];
    await sleep(200);
    const started = Date.now();
    const visitor = await httpRequest(base, '/robots.txt');
    const waited = Date.now() - started;
    console.log(`a visitor beside four compressed 48 MB downloads: ${visitor.status} in ${waited} ms`);
    expect(visitor.status).toBe(200);
    expect(waited).toBeLessThan(1000);
    for (const length of await Promise.all(downloads)) expect(length).toBeGreaterThan(video.length);
  }, 120_000);

  it('sends the same bytes once decoded, chunked, and HEAD without a body', async () => {
    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const answer = await httpRequest(base, '/video.mp4', { 'Accept-Encoding': `${encoding}, identity;q=0` });
      expect([answer.status, answer.headers['content-encoding'], answer.headers['transfer-encoding']], encoding).toEqual([200, encoding, 'chunked']);
      expect(decode(answer.body).equals(video), encoding).toBe(true);
      const head = await httpRequest(base, '/video.mp4', { 'Accept-Encoding': `${encoding}, identity;q=0` }, 'HEAD');
      expect([head.status, head.headers['content-encoding'], head.body.length], encoding).toEqual([200, encoding, 0]);
    }
    // A client that takes the bytes as they are gets them so, with their length.
    const plain = await httpRequest(base, '/video.mp4', { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect([plain.headers['content-encoding'], plain.headers['content-length']]).toEqual([undefined, String(video.length)]);
  }, 120_000);
});
