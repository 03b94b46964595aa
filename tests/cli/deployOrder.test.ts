/**
 * The order of a deploy's deletions (cli/deployOrder.ts): pages and indexes,
 * then page data and JSON, then everything else; among the pages, one that
 * links to another deleted page goes in an earlier round than it, and pages
 * that link to each other in a circle share a round.
 */
import { describe, expect, it } from 'vitest';
import { deletionRounds, referencesOf } from '../../cli/deployOrder.ts';

const links = (graph: Record<string, string[]>) => (name: string) => graph[name] ?? [];

/** The round each name is deleted in. */
function roundOf(rounds: string[][]): Map<string, number> {
  return new Map(rounds.flatMap((round, i) => round.map((name) => [name, i] as const)));
}

describe('deletionRounds', () => {
  it('without links: pages and indexes, then page data and JSON, then everything else, each in the given order', () => {
    expect(deletionRounds(['app-1.js', 'page-data/b/page-data.json', 'b/index.html', 'sitemap-1.xml', 'a/index.html'])).toEqual([
      ['b/index.html', 'sitemap-1.xml', 'a/index.html'],
      ['page-data/b/page-data.json'],
      ['app-1.js'],
    ]);
    expect(deletionRounds([])).toEqual([]);
  });

  it('a page that links to another deleted page goes a round before it; page data and assets still after every page', () => {
    const names = ['b/index.html', 'a/index.html', 'c/index.html', 'page-data/a/page-data.json', 'app-1.js'];
    // a → b → c and a → c: three rounds, one page each, whatever the order of the names.
    const graph = { 'a/index.html': ['b/index.html', 'c/index.html', 'app-1.js'], 'b/index.html': ['c/index.html'] };
    expect(deletionRounds(names, links(graph))).toEqual([['a/index.html'], ['b/index.html'], ['c/index.html'], ['page-data/a/page-data.json'], ['app-1.js']]);
  });

  it('pages that link to each other share a round, after what links to them and before what they link to', () => {
    const names = ['a/index.html', 'b/index.html', 'c/index.html', 'd/index.html', 'e/index.html'];
    const graph = {
      'a/index.html': ['b/index.html'],
      'b/index.html': ['a/index.html', 'c/index.html'],
      'c/index.html': ['d/index.html'],
      'd/index.html': ['b/index.html'],
      'e/index.html': ['a/index.html'],
    };
    // a, b, c and d are one circle (a ↔ b, b → c → d → b); e links into it.
    expect(deletionRounds(names, links(graph))).toEqual([['e/index.html'], ['a/index.html', 'b/index.html', 'c/index.html', 'd/index.html']]);
    // Two circles, one linking to the other.
    const two = {
      'a/index.html': ['b/index.html', 'c/index.html'],
      'b/index.html': ['a/index.html'],
      'c/index.html': ['d/index.html'],
      'd/index.html': ['c/index.html'],
    };
    expect(deletionRounds(names.slice(0, 4), links(two))).toEqual([
      ['a/index.html', 'b/index.html'],
      ['c/index.html', 'd/index.html'],
    ]);
  });

  it('links to what stays, to itself, or among JSON and assets change nothing', () => {
    const names = ['a/index.html', 'b/index.html', 'page-data/a/page-data.json', 'x.json'];
    const graph = { 'a/index.html': ['a/index.html', 'kept/index.html'], 'page-data/a/page-data.json': ['x.json'], 'x.json': ['b/index.html'] };
    expect(deletionRounds(names, links(graph))).toEqual([
      ['a/index.html', 'b/index.html'],
      ['page-data/a/page-data.json', 'x.json'],
    ]);
  });

  it('every page that links to another goes in an earlier round, in a run of 20,000 deleted neighbours (no stack overflow)', () => {
    const n = 20_000;
    const name = (i: number) => `articles/a-${i}/index.html`;
    const names = Array.from({ length: n }, (_, i) => name(n - 1 - i));
    // Each links to the next four, as an article to its older neighbours; the last two link to each other.
    const graph = (page: string) => {
      const i = Number(/a-(\d+)/.exec(page)![1]);
      return i === n - 1
        ? [name(n - 2)]
        : Array.from({ length: 4 }, (_, k) => i + 1 + k)
            .filter((j) => j < n)
            .map(name);
    };
    const rounds = deletionRounds(names, graph);
    const round = roundOf(rounds);
    expect(round.size).toBe(n);
    const late: string[] = [];
    for (const page of names)
      for (const target of graph(page))
        if (page !== name(n - 1) && target !== name(n - 1) && round.get(page)! >= round.get(target)!) late.push(`${page} → ${target}`);
    expect(late).toEqual([]);
    expect(round.get(name(n - 1))).toBe(round.get(name(n - 2)));
    expect(rounds).toHaveLength(n - 1);
  });

  it('with referencesOf on the stored pages: the article that lists the other among its related ones goes first', () => {
    const site = 'https://felt.example';
    const names = ['articles/old/index.html', 'articles/new/index.html', 'page-data/articles/new/page-data.json', 'page-data/articles/old/page-data.json'];
    const texts: Record<string, string> = {
      'articles/new/index.html':
        '<a href="/articles/old">Old</a><a href="/articles/kept">Kept</a><link rel="canonical" href="https://felt.example/articles/new">',
      'articles/old/index.html': '<a href="/articles/kept">Kept</a>',
    };
    const going = new Set(names);
    const references = (page: string) => referencesOf(page, texts[page] ?? '', site, (other) => going.has(other), names);
    expect(deletionRounds(names, references)).toEqual([
      ['articles/new/index.html'],
      ['articles/old/index.html'],
      ['page-data/articles/new/page-data.json', 'page-data/articles/old/page-data.json'],
    ]);
  });
});
