/**
 * The search index of a built site, queried as the browser does: the
 * browser's own engine (site/client/search/engine.ts) reading the files of
 * a dist folder. Since issue 13 an incremental build's index is a base plus
 * a delta, not the bytes a cold build writes: the two are compared by what
 * queries find.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { MissingIndexFile, SearchEngine } from '../../site/client/search/engine.ts';
import { words } from '../../site/islands/search/text.ts';

/** A search over `dir`'s index: every hit of every page, as `slug|title|category|subcategory|score`, best first. */
export function distSearch(dir: string): (query: string) => Promise<string[]> {
  const engine = new SearchEngine('/search/manifest.json', async (url) => {
    try {
      return JSON.parse(await readFile(path.join(dir, url), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingIndexFile(url);
      throw error;
    }
  });
  return async (query) => {
    const hits: string[] = [];
    for (let page = await engine.search(query); ; page = await page.next()) {
      hits.push(...page.hits.map((h) => [h.slug, h.title, h.category, h.subcategory, h.score].join('|')));
      if (!page.more) return hits;
    }
  };
}

/** Queries that cover an index: every word of every title it holds records for, a prefix of each, and a typo of the long ones. */
export async function titleQueries(...dirs: string[]): Promise<string[]> {
  const queries = new Set<string>();
  for (const dir of dirs) {
    for (const entry of await readdir(path.join(dir, 'search'), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || path.basename(entry.parentPath) !== 'r') continue;
      const records = JSON.parse(await readFile(path.join(entry.parentPath, entry.name), 'utf8')) as [string][];
      for (const [title] of records) {
        for (const word of words(title)) {
          queries.add(word);
          if (word.length > 3) queries.add(word.slice(0, 3));
          if (word.length >= 5) queries.add(word[1]! + word[0]! + word.slice(2));
        }
      }
    }
  }
  return [...queries].sort();
}

/**
 * For each query, what differs between the two indexes' answers: the same
 * hits with the same scores. Order among hits of equal score is left out:
 * ties rank newest first, and a delta's articles count as newer than the base's.
 */
export async function searchDifferences(dir: string, reference: string, queries: string[]): Promise<string[]> {
  const [search, expected] = [distSearch(dir), distSearch(reference)];
  const differences: string[] = [];
  for (const query of queries) {
    const [got, want] = await Promise.all([search(query), expected(query)]);
    const a = JSON.stringify([...got].sort());
    const b = JSON.stringify([...want].sort());
    if (a !== b) differences.push(`${query}: ${a} instead of ${b}`);
  }
  return differences;
}
