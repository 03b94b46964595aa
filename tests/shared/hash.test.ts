/**
 * shared/hash.ts, the one FNV-1a: the build and the browser's search chunk
 * must keep computing the values already published (sponsored headings,
 * search bucket files), or a cached search index would send queries to the
 * wrong bucket.
 */
import { describe, expect, it } from 'vitest';
import { fnv1a } from '../../shared/hash.ts';
import { bucketOf } from '../../site/islands/search/text.ts';
import { SPONSORED_HEADINGS, sponsoredHeadingIndex } from '../../site/render/sponsored.ts';

describe('fnv1a', () => {
  it('gives the reference FNV-1a 32-bit values', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1a('/')).toBe(0x2a0c975e);
  });

  it('keeps the search buckets and sponsored headings that builds made before it', () => {
    // Computed with the search chunk's own FNV-1a before it moved here; UTF-16 code units, so an emoji counts twice.
    const buckets = { pok: [49, 429431], ığü: [31, 154352], бан: [59, 876446], '😀ab': [59, 644072], a: [44, 990745] };
    for (const [gram, [of64, ofPrime]] of Object.entries(buckets)) {
      expect([bucketOf(gram, 64), bucketOf(gram, 1000003)]).toEqual([of64, ofPrime]);
    }
    expect(sponsoredHeadingIndex('/')).toBe(0x2a0c975e % SPONSORED_HEADINGS.length);
  });
});
