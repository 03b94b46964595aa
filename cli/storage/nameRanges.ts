/**
 * A large bucket listed as several name ranges at once (GCS's startOffset and
 * endOffset) rather than page after page: each page of a listing is a round
 * trip, and a locale's hosting bucket at 100,000 articles is 152 pages. The
 * ranges are cut where the names the caller expects (the files it is about to
 * deploy) fall evenly; any cut is correct, an even one is fast.
 */
import type { Bucket, NameRange, ObjectInfo } from './types.ts';

/** Names a range is cut for: five pages of a listing, so a small bucket stays one listing. */
const NAMES_PER_RANGE = 5000;
/** Listings in flight at once. */
const MAX_RANGES = 8;

/**
 * GCS orders names by their UTF-8 bytes, which is code point order. JavaScript's < compares UTF-16 units, which
 * differs only where a surrogate (a character above U+FFFF) meets U+E000–U+FFFF: there the units are shifted into
 * code point order. No Buffer per comparison: the fake GCS sorts 150,000 names with this.
 */
export function compareNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

export function inRange(name: string, range: NameRange): boolean {
  return (range.from === undefined || compareNames(name, range.from) >= 0) && (range.before === undefined || compareNames(name, range.before) < 0);
}

/** Ranges that hold every name between them, each about NAMES_PER_RANGE of `expected`; one open range for a few. */
export function nameRanges(expected: readonly string[]): NameRange[] {
  const parts = Math.min(MAX_RANGES, Math.ceil(expected.length / NAMES_PER_RANGE));
  if (parts <= 1) return [{}];
  // A sample is enough to find where the names fall: sorting 150,000 of them would cost more than it saves.
  const step = Math.max(1, Math.floor(expected.length / (parts * 64)));
  const sample = expected.filter((_, i) => i % step === 0).sort(compareNames);
  const cuts = [...new Set(Array.from({ length: parts - 1 }, (_, i) => sample[Math.floor(((i + 1) * sample.length) / parts)]!))].sort(compareNames);
  const ranges: NameRange[] = cuts.map((cut, i) => ({ ...(i > 0 ? { from: cuts[i - 1] } : {}), before: cut }));
  return [...ranges, { from: cuts.at(-1)! }];
}

/** Every object under `prefix`, the ranges listed at once, in name order. */
export async function listInRanges(bucket: Bucket, prefix: string, ranges: NameRange[]): Promise<ObjectInfo[]> {
  return (await Promise.all(ranges.map((range) => bucket.list(prefix, range)))).flat();
}
