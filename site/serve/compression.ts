/**
 * Compressed responses for `felt serve`: brotli or gzip, as the browser asks,
 * for text files. Each file is compressed once per version (path, size and
 * mtime) and kept in a bounded cache, so a busy server spends its CPU on
 * serving, not on compressing the same bytes again.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import type { Transform } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';

// Text, JavaScript, and JSON or XML in any dress (+json, +xml: web app
// manifests, RSS and Atom feeds, SVG). Fonts, images and PDFs are compressed
// already, or gain too little for the CPU.
const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript)\b|[a-z]+\/[\w.-]+\+(json|xml)\b)/i;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const MIN_BYTES = 512;
/**
 * Files up to this size are compressed whole, at once, and cached; larger ones
 * (an operator's video or PDF, asked for by a client that refuses identity)
 * are compressed as they are sent, on zlib's threads: whole, they held the
 * event loop for seconds and their size in memory on every request.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export type Encoding = 'br' | 'gzip';

/** Text worth compressing: `felt serve` compresses it on the fly, `felt deploy` stores it gzip-encoded. */
export function isCompressible(contentType: string, size: number): boolean {
  return size >= MIN_BYTES && COMPRESSIBLE.test(contentType);
}

// negotiator 1.x breaks ties in q by `preferred`; @types/negotiator (0.6) does not describe the option yet.
interface EncodingNegotiator {
  encoding(available: readonly string[], options?: { preferred: readonly string[] }): string | undefined;
}

/**
 * The coding a response is sent in, as the request's Accept-Encoding allows
 * (q-values, `*`, `identity;q=0`): `identity` for the bytes as they are, or
 * undefined when the client refuses every coding on offer (406). Text goes
 * brotli, then gzip, when the client likes them as well as anything else;
 * other files go as they are unless the client refuses that.
 */
export function negotiateEncoding(headers: IncomingHttpHeaders, contentType: string, size: number): Encoding | 'identity' | undefined {
  const negotiator = new Negotiator({ headers }) as unknown as EncodingNegotiator;
  const chosen = isCompressible(contentType, size)
    ? negotiator.encoding(['br', 'gzip', 'identity'], { preferred: ['br', 'gzip', 'identity'] })
    : (negotiator.encoding(['identity']) ?? negotiator.encoding(['br', 'gzip'], { preferred: ['br', 'gzip'] }));
  return chosen as Encoding | 'identity' | undefined;
}

/** The client takes the bytes as they are (`identity` not refused by Accept-Encoding): what a range is cut from. */
export function acceptsIdentity(headers: IncomingHttpHeaders): boolean {
  return new Negotiator({ headers }).encoding(['identity']) === 'identity';
}

const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** A compressing stream for a file too large to compress at once (MAX_BUFFERED_BYTES), with the same settings. */
export function compressingStream(encoding: Encoding, size: number): Transform {
  return encoding === 'br'
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: size } })
    : createGzip({ level: GZIP_LEVEL });
}

export class CompressionCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  async get(file: string, version: string, encoding: Encoding): Promise<Buffer> {
    const key = `${encoding}:${version}:${file}`;
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-insert to keep recently used entries last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const raw = await readFile(file);
    const packed =
      encoding === 'br'
        ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
        : gzipSync(raw, { level: GZIP_LEVEL });
    this.entries.set(key, packed);
    this.bytes += packed.length;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= MAX_CACHE_BYTES) break;
      this.entries.delete(oldKey);
      this.bytes -= old.length;
    }
    return packed;
  }
}
