/**
 * Reading felt's own large state files (the article cache, the build manifest: tens of megabytes at 100,000
 * articles) as text. They are nearly always ASCII (paths, keys, digests, and English text), and Node's UTF-8
 * decoding of a large ASCII buffer costs about twice its Latin-1 copy: ASCII checked (with SIMD) is decoded as
 * Latin-1, which is the same text; anything else as UTF-8.
 */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';

export function readStateText(file: string): string {
  const bytes = readFileSync(file);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}
