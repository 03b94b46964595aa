import { describe, expect, it } from 'vitest';
import { latestUpdated } from '../../site/routes/routes.ts';
import type { Article } from '../../shared/types.ts';

/** What the home page's "updated" list was before it kept only the best few: every updated article, sorted. */
function bySorting(articles: Article[], count: number): Article[] {
  return articles
    .filter((a) => a.updated && a.updated > a.date)
    .sort((a, b) => (a.updated! < b.updated! ? 1 : a.updated! > b.updated! ? -1 : 0))
    .slice(0, count);
}

function randomArticles(seed: number, n: number): Article[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
  return Array.from({ length: n }, (_, i) => {
    const date = day(Math.floor(next() * 30));
    // Few distinct update days, so ties are common; some updates before the date, some none.
    const roll = next();
    const updated = roll < 0.3 ? undefined : day(Math.floor(next() * 40) - 5);
    return { id: `a${i}`, slug: `a${i}`, date, updated } as Article;
  });
}

describe("the home page's recently updated articles", () => {
  it('are the ones a full sort would pick, ties in list order, for any count', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const articles = randomArticles(seed, 300);
      for (const count of [0, 1, 2, 4, 7, 50, 400]) {
        expect(latestUpdated(articles, count).map((a) => a.id)).toEqual(bySorting(articles, count).map((a) => a.id));
      }
    }
  });
});
