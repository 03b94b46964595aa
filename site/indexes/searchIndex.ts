/**
 * The sharded search index (issue #3, widened by issue 18): a small manifest,
 * the words of every title, topic and description with their articles per
 * field, in shard files by the words' first three letters (and, for typo
 * tolerance, listed again under three variant keys), and article records in
 * fixed-size chunks grouped in content-hashed segments. A query fetches the
 * manifest, one shard per query word (more for a long word that matches
 * nothing there), and the record chunks of its best candidates, never the
 * whole title list. Shapes and the text rules are in
 * site/islands/search/text.ts, shared with the browser.
 */
import { createHash } from 'node:crypto';
import type { SiteModel } from '../model/siteModel.ts';
import {
  bucketOf,
  FIELDS,
  homeKey,
  variantKeys,
  words,
  type SearchManifest,
  type SearchPostings,
  type SearchRecord,
  type SearchShard,
} from '../islands/search/text.ts';

export const SEARCH_MANIFEST = 'search/manifest.json';
/** Records per chunk: a result costs about one small file at most. */
export const RECORD_CHUNK = 8;
/** Record chunks per segment folder: what one new article makes a rebuild rewrite. */
export const SEGMENT_CHUNKS = 64;
/** Shard files aim at about this many bytes of JSON each. */
const SHARD_TARGET_BYTES = 2048;

export interface OutputFile {
  path: string;
  content: string;
}

export interface SearchEntry {
  title: string;
  slug: string;
  date: string;
  description: string;
  /** The article's topics (its placements' subsubcategories). */
  topics: string[];
  /** Index of the category in the menu, and of the subcategory among its children. */
  category: number;
  subcategory: number;
}

export function buildSearchIndex(model: SiteModel): OutputFile[] {
  return buildSearchFiles(searchEntries(model));
}

/** The model's articles as search entries, filed under their first placement. */
export function searchEntries(model: SiteModel): SearchEntry[] {
  const { categories } = model.content;
  return model.articles.map((article) => {
    const placements = model.index.placements.get(article.id) ?? [];
    const first = placements[0];
    const category = first ? categories.indexOf(first.category) : -1;
    const subcategory = first && category >= 0 ? first.category.children.indexOf(first.subcategory) : -1;
    const topics = [...new Set(placements.flatMap((p) => p.subsubcategories))];
    return { title: article.title, slug: article.slug, date: article.date, description: article.description, topics, category, subcategory };
  });
}

export function buildSearchFiles(entries: SearchEntry[]): OutputFile[] {
  const ordered = [...entries].sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? -1 : 1));
  const n = ordered.length;
  // word → per field, the ordinals of the articles that hold it (ascending, as ordinals are visited in order)
  const postings = new Map<string, [number[], number[], number[]]>();
  ordered.forEach((entry, ordinal) => {
    FIELDS.map((field) => (field === 'topics' ? entry.topics.join(' ') : entry[field])).forEach((text, field) => {
      for (const word of new Set(words(text))) {
        let lists = postings.get(word);
        if (!lists) postings.set(word, (lists = [[], [], []]));
        lists[field]!.push(ordinal);
      }
    });
  });
  // A word in more than 1 article's field in 16 (and more than 2,048: below that a whole list costs
  // a few KB) barely narrows a search: its list is left out, and the browser checks titles instead
  // (a word that common in descriptions only matches titles and topics).
  const common = Math.max(2048, Math.ceil(n / 16));
  const shardWords = new Map<string, { own: [string, SearchPostings][]; variants: string[] }>();
  const keyOf = (key: string) => {
    let entry = shardWords.get(key);
    if (!entry) shardWords.set(key, (entry = { own: [], variants: [] }));
    return entry;
  };
  let bytes = 0;
  for (const word of [...postings.keys()].sort()) {
    const lists = postings.get(word)!;
    const coded = lists.map((list) => (list.length > common ? null : gaps(list))) as SearchPostings;
    keyOf(homeKey(word)).own.push([word, coded]);
    for (const key of variantKeys(word)) keyOf(key).variants.push(word);
    bytes += word.length * 3 + 12 + lists.reduce((sum, list) => sum + Math.min(list.length, common) * 3, 0);
  }

  const buckets = bucketCount(bytes);
  const shards: SearchShard[] = Array.from({ length: buckets }, () => ({ w: {} }));
  for (const key of [...shardWords.keys()].sort()) {
    const { own, variants } = shardWords.get(key)!;
    const shard = shards[bucketOf(key, buckets)]!;
    for (const [word, coded] of own) shard.w[word] = coded;
    if (variants.length > 0) (shard.v ??= []).push(...variants);
  }

  const chunks: SearchRecord[][] = [];
  for (let i = 0; i < n; i += RECORD_CHUNK) {
    chunks.push(ordered.slice(i, i + RECORD_CHUNK).map((e) => [e.title, e.slug, e.category, e.subcategory]));
  }
  const shardJson = shards.map((shard) => JSON.stringify(shard));
  const chunkJson = chunks.map((chunk) => JSON.stringify(chunk));
  const id = indexId([String(buckets), ...shardJson]);
  const segments: string[] = [];
  for (let first = 0; first < chunkJson.length; first += SEGMENT_CHUNKS) {
    segments.push(indexId([String(RECORD_CHUNK), String(first), ...chunkJson.slice(first, first + SEGMENT_CHUNKS)]));
  }
  const manifest: SearchManifest = { v: 3, id, n, b: buckets, c: RECORD_CHUNK, s: SEGMENT_CHUNKS, r: segments };
  return [
    { path: SEARCH_MANIFEST, content: JSON.stringify(manifest) },
    ...shardJson.map((content, i) => ({ path: `search/${id}/w/${i}.json`, content })),
    ...chunkJson.map((content, i) => ({ path: `search/${segments[Math.floor(i / SEGMENT_CHUNKS)]}/r/${i}.json`, content })),
  ];
}

/** Ascending ordinals as the first one, then the gaps: small numbers compress well. */
function gaps(list: number[]): number[] {
  return list.map((value, i) => (i === 0 ? value : value - list[i - 1]!));
}

function bucketCount(bytes: number): number {
  let buckets = 1;
  while (buckets < 16384 && bytes / buckets > SHARD_TARGET_BYTES) buckets *= 2;
  return buckets;
}

function indexId(parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 12);
}
