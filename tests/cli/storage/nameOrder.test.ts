/**
 * compareNames is GCS's name order (UTF-8 bytes) without a Buffer per comparison: the fake GCS sorts a bench's
 * 150,000 names with it, and deploy's name ranges are cut with it.
 */
import { describe, expect, it } from 'vitest';
import { compareNames } from '../../../cli/storage/nameRanges.ts';
import { random } from '../../../bench/corpus.mjs';

describe('compareNames', () => {
  it('orders any two names as their UTF-8 bytes compare', () => {
    // The characters where UTF-16 units and UTF-8 bytes disagree, and their neighbours.
    const pool = ['a', 'z', '~', '/', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffbf', '\ufffd', '\uffff', '😀', '\u{10000}', '\u{10ffff}'];
    const rand = random(7);
    const name = () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pool[Math.floor(rand() * pool.length)]).join('');
    for (let n = 0; n < 20_000; n++) {
      const [a, b] = [name(), name()];
      expect(Math.sign(compareNames(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});
