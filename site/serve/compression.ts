/**
 * Compressed responses for `felt serve`: brotli or gzip, as the browser asks,
 * for text files. Each file is compressed once per version (path, size and
 * mtime) and kept in a bounded cache, so a busy server spends its CPU on
 * serving, not on compressing the same bytes again.
 */
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript|manifest\+json)|image\/svg\+xml)/;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const MIN_BYTES = 512;

export type Encoding = 'br' | 'gzip';

/** Text worth compressing: `felt serve` compresses it on the fly, `felt deploy` stores it gzip-encoded. */
export function isCompressible(contentType: string, size: number): boolean {
  return size >= MIN_BYTES && COMPRESSIBLE.test(contentType);
}

export function pickEncoding(acceptEncoding: string | undefined, contentType: string, size: number): Encoding | undefined {
  if (!acceptEncoding || !isCompressible(contentType, size)) return undefined;
  const accepted = new Set(acceptEncoding.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase()).filter((part) => !/q=0(\.0*)?$/.test(part)));
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
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
    const packed = encoding === 'br' ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : gzipSync(raw, { level: 6 });
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
