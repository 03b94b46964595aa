/**
 * The sharded search index (issue #3): a small manifest, trigram postings
 * hashed into bucket files, and article records in fixed-size chunks
 * grouped in content-hashed segments (layout in site/islands/search/text.ts). A
 * query fetches the manifest, at most three buckets and the record chunks
 * of its newest candidates, never the whole title list. Shapes and the
 * folding rules are in site/islands/search/text.ts, shared with the browser.
 */
import { createHash } from 'node:crypto';
import type { SiteModel } from '../model/siteModel.ts';
import { titleTrigrams, bucketOf, type SearchBucket, type SearchManifest, type SearchRecord } from '../islands/search/text.ts';

export const SEARCH_MANIFEST = 'search/manifest.json';
/** Records per chunk: a result costs about one small file at most. */
export const RECORD_CHUNK = 32;
/** Record chunks per segment folder: what one new article makes a rebuild rewrite. */
export const SEGMENT_CHUNKS = 16;
/** Bucket files aim at about this many bytes of JSON each. */
const BUCKET_TARGET_BYTES = 8192;

export interface OutputFile {
  path: string;
  content: string;
}

export interface SearchEntry {
  title: string;
  slug: string;
  date: string;
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
    const first = model.index.placements.get(article.id)?.[0];
    const category = first ? categories.indexOf(first.category) : -1;
    const subcategory = first && category >= 0 ? first.category.children.indexOf(first.subcategory) : -1;
    return { title: article.title, slug: article.slug, date: article.date, category, subcategory };
  });
}

export function buildSearchFiles(entries: SearchEntry[]): OutputFile[] {
  const ordered = [...entries].sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? -1 : 1));
  const n = ordered.length;
  const postings = new Map<string, number[]>();
  ordered.forEach((entry, ordinal) => {
    for (const gram of titleTrigrams(entry.title)) {
      const list = postings.get(gram);
      if (list) list.push(ordinal);
      else postings.set(gram, [ordinal]);
    }
  });
  // A trigram in more than 1 title in 16 (and more than 256 titles) barely
  // narrows a search: the browser scans the newest records instead.
  const stopAt = Math.max(256, Math.ceil(n / 16));
  const stop = [...postings]
    .filter(([, list]) => list.length > stopAt)
    .map(([gram]) => gram)
    .sort();
  for (const gram of stop) postings.delete(gram);

  const buckets = bucketCount(postings);
  const bucketMaps: SearchBucket[] = Array.from({ length: buckets }, () => ({}));
  for (const [gram, list] of [...postings].sort(([a], [b]) => (a < b ? -1 : 1))) bucketMaps[bucketOf(gram, buckets)]![gram] = gaps(list);

  const chunks: SearchRecord[][] = [];
  for (let i = 0; i < n; i += RECORD_CHUNK) {
    chunks.push(ordered.slice(i, i + RECORD_CHUNK).map((e) => [e.title, e.slug, e.category, e.subcategory]));
  }
  const bucketJson = bucketMaps.map((map) => JSON.stringify(map));
  const chunkJson = chunks.map((chunk) => JSON.stringify(chunk));
  const id = indexId([String(buckets), ...bucketJson]);
  const segments: string[] = [];
  for (let first = 0; first < chunkJson.length; first += SEGMENT_CHUNKS) {
    segments.push(indexId([String(RECORD_CHUNK), String(first), ...chunkJson.slice(first, first + SEGMENT_CHUNKS)]));
  }
  const manifest: SearchManifest = { v: 2, id, n, b: buckets, c: RECORD_CHUNK, s: SEGMENT_CHUNKS, r: segments, stop };
  return [
    { path: SEARCH_MANIFEST, content: JSON.stringify(manifest) },
    ...bucketJson.map((content, i) => ({ path: `search/${id}/b/${i}.json`, content })),
    ...chunkJson.map((content, i) => ({ path: `search/${segments[Math.floor(i / SEGMENT_CHUNKS)]}/r/${i}.json`, content })),
  ];
}

/** Ascending ordinals as the first one, then the gaps: small numbers compress well. */
function gaps(list: number[]): number[] {
  return list.map((value, i) => (i === 0 ? value : value - list[i - 1]!));
}

function bucketCount(postings: Map<string, number[]>): number {
  let bytes = 0;
  for (const [gram, list] of postings) bytes += gram.length + 6 + list.length * 3;
  let buckets = 1;
  while (buckets < 4096 && bytes / buckets > BUCKET_TARGET_BYTES) buckets *= 2;
  return buckets;
}

function indexId(parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 12);
}
