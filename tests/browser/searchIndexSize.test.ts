/**
 * Issue #3 (and #5's target): one search query must not download every
 * title. Prints the compressed bytes each query fetches at 1,000 and 10,000
 * synthetic articles (100,000 with FELT_SEARCH_100K=1) and holds them to a budget.
 */
import { describe, expect, it } from 'vitest';
import { measureQueries } from './searchBytes.ts';

const SIZES = process.env.FELT_SEARCH_100K ? [1000, 10_000, 100_000] : [1000, 10_000];

describe('search index size', () => {
  it.each(SIZES)(
    'a query at %i articles fetches at most 60 KB compressed',
    async (n) => {
      const rows = await measureQueries(n);
      const worst = Math.max(...rows.map((row) => row.gzip));
      console.log(`search at ${n} articles: worst query ${worst} B gzip, ${Math.max(...rows.map((r) => r.brotli))} B brotli`);
      console.table(rows);
      expect(worst).toBeLessThanOrEqual(60 * 1024);
      // Far below the size of every title: the index is really sharded.
      const all = rows.find((row) => row.query === 'poker')!;
      expect(all.files).toBeGreaterThan(1);
    },
    120_000,
  );

  it('finds every matching title, newest first, whatever the word order', async () => {
    const { syntheticCorpus } = await import('./searchBytes.ts');
    const { buildSearchFiles } = await import('../../site/indexes/searchIndex.ts');
    const { SearchEngine } = await import('../../site/client/search/engine.ts');
    // Oldest first by date, then slug, as the index orders them.
    const corpus = syntheticCorpus(2000).sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? -1 : 1));
    const files = new Map(buildSearchFiles(corpus).map((f) => [`/${f.path}`, f.content]));
    const engine = new SearchEngine('/search/manifest.json', async (url) => JSON.parse(files.get(url)!));
    for (const query of ['TENNIS hedg', 'hedg tennis', 'omaha', 'the poker', 'a b c']) {
      const words = query.toLowerCase().split(' ');
      const expected = corpus
        .filter((e) => words.every((w) => e.title.toLowerCase().includes(w)))
        .map((e) => e.slug)
        .reverse();
      const found: string[] = [];
      for (let page = await engine.search(query); ; page = await page.next()) {
        found.push(...page.hits.map((h) => h.slug));
        if (!page.more) break;
      }
      expect(found, query).toEqual(expected);
    }
  });

  it('keeps the record files of older articles when newer ones are added, and still finds the new ones', async () => {
    const { syntheticCorpus } = await import('./searchBytes.ts');
    const { buildSearchFiles } = await import('../../site/indexes/searchIndex.ts');
    const { SearchEngine } = await import('../../site/client/search/engine.ts');
    const corpus = syntheticCorpus(3020);
    const before = new Map(buildSearchFiles(corpus.slice(0, 3000)).map((f) => [f.path, f.content]));
    const after = new Map(buildSearchFiles(corpus).map((f) => [f.path, f.content]));
    const records = (files: Map<string, string>) => [...files.keys()].filter((p) => p.includes('/r/'));
    const kept = records(after).filter((p) => before.get(p) === after.get(p));
    const rewritten = records(after).filter((p) => before.get(p) !== after.get(p));
    // 3,020 articles make 95 record chunks; only the last segment's are new files.
    expect(records(after)).toHaveLength(95);
    expect(kept.length).toBeGreaterThanOrEqual(80);
    expect(rewritten.length).toBeLessThanOrEqual(16);
    const engine = new SearchEngine('/search/manifest.json', async (url) => JSON.parse(after.get(url.slice(1))!));
    const newest = corpus[3019]!;
    const page = await engine.search(newest.title.split(' ').slice(0, 2).join(' '));
    expect(page.hits.map((h) => h.slug)).toContain(newest.slug);
  });
});
