/**
 * Search text rules shared by the index build (Node) and the search chunk
 * (browser), so both fold and split text the same way.
 *
 * Matching (SPEC section 2, widened by issue 18): case-insensitive; every
 * word of the query must match a word of the article's title, topics or
 * description, in any order: the same word, the start of one, or, for query
 * words of five letters or more, a word one typo away (a letter added,
 * dropped, changed, or two neighbours swapped). Apostrophes join a word
 * ("hold'em" is "holdem"), other punctuation separates words.
 */

import { fnv1a } from '../../../shared/hash.ts';
import { oneEdit } from '../../../shared/spelling.ts';

/** Results appear only when the query is longer than 2 characters (SPEC section 5). */
export const SEARCH_MIN_CHARS = 3;
/** Query words this long or longer also find words one typo away. */
export const TYPO_MIN_CHARS = 5;

/** Lower case without accents; Turkish dotless ı and dotted İ fold to i. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i');
}

/** The folded words of a text: apostrophes (' ’ ʼ `) join, anything not a letter or digit splits. */
export function words(text: string): string[] {
  return fold(text)
    .replace(/['’ʼ`´]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The distinct words of a query. */
export function queryWords(query: string): string[] {
  return [...new Set(words(query))];
}

/** Whether a query is long enough to search. */
export function isSearchable(query: string): boolean {
  return query.trim().length >= SEARCH_MIN_CHARS;
}

/** How a query word matched an indexed word; higher is better. */
export const MATCH = { typo: 0, prefix: 1, exact: 2 } as const;
export type MatchQuality = (typeof MATCH)[keyof typeof MATCH];

/** How well the query word `q` matches the indexed word `w`, or -1. */
export function matchWord(q: string, w: string): MatchQuality | -1 {
  if (w === q) return MATCH.exact;
  if (w.startsWith(q)) return MATCH.prefix;
  if ([...q].length < TYPO_MIN_CHARS) return -1;
  // The whole word one typo away, or (typing still under way) the start of it.
  if (oneEdit(q, w)) return MATCH.typo;
  for (const length of [q.length - 1, q.length, q.length + 1]) {
    if (length < w.length && oneEdit(q, w.slice(0, length))) return MATCH.typo;
  }
  return -1;
}

/** Query words shorter than this match by checking titles: their matches spread over many shards. */
export const KEY_CHARS = 3;

/** The shard key of a word: its first three characters. */
export function homeKey(word: string): string {
  return [...word].slice(0, KEY_CHARS).join('');
}

/**
 * The keys a word is also listed under, so a query with a typo in its first
 * three letters still finds it: the first three letters left after dropping
 * the word's first, second or third letter. A query word looks under its own
 * key and these of its own; one typo anywhere leaves a key in common (an
 * edit at a letter both drop is gone from both; a letter added or dropped
 * turns one word's own key into the other's variant).
 */
export function variantKeys(word: string): string[] {
  const c = [...word];
  if (c.length < TYPO_MIN_CHARS - 1) return [];
  const home = homeKey(word);
  const keys = new Set<string>();
  for (let drop = 0; drop < KEY_CHARS; drop++) keys.add([...c.slice(0, drop), ...c.slice(drop + 1)].slice(0, KEY_CHARS).join(''));
  keys.delete(home);
  return [...keys];
}

/** The shard file a key lives in. */
export function bucketOf(key: string, buckets: number): number {
  return fnv1a(key) % buckets;
}

/**
 * The index as files (see site/indexes/searchIndex.ts):
 * - search/manifest.json: SearchManifest, revalidated, names the folders;
 * - search/{id}/w/{shard}.json: SearchShard, the words whose key hashes there;
 * - search/{r[k]}/r/{chunk}.json: the records of ordinals chunk*c … chunk*c+c-1,
 *   for the chunks k*s … k*s+s-1 of segment k.
 * Every folder is named by the hash of what it holds, so its files never change
 * under a cached manifest. Ordinals count from the oldest article, so new
 * articles add to the last segment and leave the others' files as they were.
 *
 * Version 4 (issue 13) splits the words LSM-style: a base (id, b), rebuilt
 * only now and then, and a small delta (d) for the articles added or changed
 * since, whose ordinals follow the base's; t lists the base ordinals of
 * articles changed or removed since the base, which a query ignores. A
 * nightly rebuild rewrites the delta's shards and the last record segment,
 * not the base's thousands of shard files.
 */
export interface SearchManifest {
  v: 4;
  /** Content hash of the base's word shards; they live under search/{id}/w/. */
  id: string;
  /** The base's word shard files. */
  b: number;
  /** The delta's word shards (search/{d.id}/w/, d.b files), when articles were added or changed since the base. */
  d?: SearchShardSet;
  /** Tombstones: base ordinals no longer in the site (changed or removed), ascending, the first absolute, then gaps. */
  t?: number[];
  /** Record chunks per segment. */
  s: number;
  /** Content hash of each segment of record chunks: its folder. */
  r: string[];
  /** Ordinals in use: the base's articles, then the delta's (tombstoned ones included). */
  n: number;
  /** Records per chunk file. */
  c: number;
}

/** A set of word shard files: search/{id}/w/0.json … {b-1}.json. */
export interface SearchShardSet {
  id: string;
  b: number;
}

/** The fields a word is found in, best first: it ranks title over topics over description. */
export const FIELDS = ['title', 'topics', 'description'] as const;

/**
 * A word's articles per field (FIELDS order): ascending ordinals, the first
 * absolute, then gaps; null when the word is in so many articles' field that
 * the list would cost more than it narrows (such words match by scanning titles).
 */
export type SearchPostings = [title: number[] | null, topics: number[] | null, description: number[] | null];

export interface SearchShard {
  /** Words whose own key hashes to this shard, with their articles. */
  w: Record<string, SearchPostings>;
  /** Words listed here under one of their variantKeys(); their articles are in their own key's shard. */
  v?: string[];
}

/** One article in a record chunk: title, slug, category index, subcategory index (menu order). */
export type SearchRecord = [title: string, slug: string, category: number, subcategory: number];
