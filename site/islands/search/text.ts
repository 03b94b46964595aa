/**
 * Search text rules shared by the index build (Node) and the search chunk
 * (browser), so both fold titles and queries the same way.
 *
 * Matching (SPEC section 2): case-insensitive, every space-separated word of
 * the query must appear in the title, in any order. A query word holds no
 * space, so it can only appear inside one space-separated token of the
 * title: the index only needs the trigrams inside title tokens.
 */

import { fnv1a } from '../../../shared/hash.ts';

/** Results appear only when the query is longer than 2 characters (SPEC section 5). */
export const SEARCH_MIN_CHARS = 3;

/** Lower case without accents; Turkish dotless ı and dotted İ fold to i. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i');
}

/** The distinct folded words of a query. */
export function queryWords(query: string): string[] {
  return [...new Set(fold(query).split(/\s+/).filter(Boolean))];
}

/** Whether a query is long enough to search. */
export function isSearchable(query: string): boolean {
  return query.trim().length >= SEARCH_MIN_CHARS;
}

/** Every word must be a substring of the folded title. */
export function titleMatches(foldedTitle: string, words: string[]): boolean {
  return words.every((word) => foldedTitle.includes(word));
}

/** The trigrams of one token (a word without spaces). */
export function trigrams(token: string): string[] {
  const chars = [...token];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  return out;
}

/** The distinct trigrams inside the space-separated tokens of a title. */
export function titleTrigrams(title: string): Set<string> {
  const set = new Set<string>();
  for (const token of fold(title).split(/\s+/)) for (const gram of trigrams(token)) set.add(gram);
  return set;
}

/** The bucket file a trigram lives in. */
export function bucketOf(gram: string, buckets: number): number {
  return fnv1a(gram) % buckets;
}

/**
 * The index as files (see site/indexes/searchIndex.ts):
 * - search/manifest.json: SearchManifest, revalidated, names the folders;
 * - search/{id}/b/{bucket}.json: trigram → ordinals (first absolute, then gaps);
 * - search/{r[k]}/r/{chunk}.json: the records of ordinals chunk*c … chunk*c+c-1,
 *   for the chunks k*s … k*s+s-1 of segment k.
 * Every folder is named by the hash of what it holds, so its files never change
 * under a cached manifest. Ordinals count from the oldest article, so new
 * articles add to the last segment and leave the others' files as they were:
 * a rebuild rewrites the buckets and a few record chunks, not the whole index.
 */
export interface SearchManifest {
  v: 2;
  /** Content hash of the trigram buckets; they live under search/{id}/b/. */
  id: string;
  /** Record chunks per segment. */
  s: number;
  /** Content hash of each segment of record chunks: its folder. */
  r: string[];
  /** Articles indexed. */
  n: number;
  /** Bucket files of the trigram postings. */
  b: number;
  /** Records per chunk file. */
  c: number;
  /** Trigrams too common to narrow a search; they have no postings. */
  stop: string[];
}

/** One article in a record chunk: title, slug, category index, subcategory index (menu order). */
export type SearchRecord = [title: string, slug: string, category: number, subcategory: number];
export type SearchBucket = Record<string, number[]>;
