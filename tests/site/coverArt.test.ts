/**
 * The generated covers' drawing (site/pictures/coverArt.ts): the same SVG for
 * the same article on every run, different for different articles, colours
 * and motif from the category, and no text (text would be rasterised with
 * whatever fonts a machine has).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ART_VERSION, coverSvg } from '../../site/pictures/coverArt.ts';

const CATEGORIES = ['bettingStrategies', 'pokerGuides', 'gameRules', 'bettingTrends', 'winningTips', 'gamblingResponsible', 'communityInsights'];

describe('cover art', () => {
  it('draws the same SVG for the same article, and another for another slug', () => {
    const subject = { slug: 'bankroll-management-bet-sizing', category: 'bettingStrategies', subcategory: 'bankrollManagement' };
    expect(coverSvg(subject, 1200, 630)).toBe(coverSvg({ ...subject }, 1200, 630));
    expect(coverSvg(subject, 1200, 630)).not.toBe(coverSvg({ ...subject, slug: 'kelly-criterion' }, 1200, 630));
  });

  it("takes the category's colours and motif, the subcategory's accent, and draws no text", () => {
    const svgs = CATEGORIES.map((category) => coverSvg({ slug: 'same-slug', category, subcategory: 'other' }, 1200, 630));
    const grounds = svgs.map((svg) => /<rect width="1200" height="630" fill="(#[0-9a-f]{6})"/.exec(svg)?.[1]);
    expect(new Set(grounds).size).toBe(CATEGORIES.length);
    for (const svg of svgs) {
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1200" height="630" viewBox="0 0 1200 630">/);
      expect(svg).not.toMatch(/<text|<tspan|font-family|<image|href=/);
    }
    const accents = ['bankrollManagement', 'sportsBettingTips', 'other'].map((subcategory) =>
      coverSvg({ slug: 's', category: 'bettingStrategies', subcategory }, 1200, 630),
    );
    expect(new Set(accents).size).toBe(3);
    // An article filed nowhere still gets a cover.
    expect(coverSvg({ slug: 'unfiled' }, 1200, 630)).toContain('<rect');
  });

  it('changes only with ART_VERSION: a new drawing must bump it, or cached covers of the old one would be served', () => {
    const drawing = CATEGORIES.map((category) => coverSvg({ slug: 'fingerprint', category, subcategory: 'other' }, 1200, 630)).join('\n');
    const fingerprint = createHash('sha256').update(drawing).digest('hex').slice(0, 16);
    // When this fails because you changed the drawing on purpose: bump ART_VERSION, then record the new pair here.
    expect({ ART_VERSION, fingerprint }).toEqual({ ART_VERSION: 2, fingerprint: '5b4a1b5bf8c5a8bc' });
  });
});
