/**
 * Query the sharded search index (site/indexes/searchIndex.ts). A query reads
 * the manifest, at most MAX_BUCKETS trigram buckets, intersects their
 * postings, then reads record chunks from the newest candidates on until it
 * has a page of verified hits. Pure logic over an injected fetcher, so the
 * same code measures its downloads in Node.
 */
import {
  bucketOf,
  isSearchable,
  queryWords,
  titleMatches,
  fold,
  trigrams,
  type SearchBucket,
  type SearchManifest,
  type SearchRecord,
} from '../../islands/search/text.ts';

/** Reads one JSON file; `reload` skips the HTTP cache (a stale manifest). */
export type FetchJson = (url: string, reload: boolean) => Promise<unknown>;

export class MissingIndexFile extends Error {
  constructor(readonly url: string) {
    super(`search index file ${url} is missing`);
  }
}

export interface Hit {
  ordinal: number;
  title: string;
  slug: string;
  category: number;
  subcategory: number;
}

export interface SearchPage {
  hits: Hit[];
  /** More chunks may hold further hits: call next(). */
  more: boolean;
  next(): Promise<SearchPage>;
}

/** One query's state between pages: the chunks to read and how to check a record. */
interface Run {
  recordsUrl: (chunk: number) => string;
  size: number;
  chunks: number[];
  words: string[];
  wanted?: Set<number>;
}

export const PAGE_HITS = 24;
const MAX_BUCKETS = 3;
const MAX_CHUNKS_PER_PAGE = 8;

export class SearchEngine {
  private manifest?: Promise<SearchManifest>;
  private readonly files = new Map<string, Promise<unknown>>();

  constructor(
    private readonly manifestUrl: string,
    private readonly fetchJson: FetchJson,
  ) {}

  async search(query: string): Promise<SearchPage> {
    try {
      return await this.run(query);
    } catch (error) {
      if (!(error instanceof MissingIndexFile)) {
        this.manifest = undefined; // a failed read is tried again on the next query
        throw error;
      }
      // A new build replaced the index under a cached manifest: read it again, once.
      this.manifest = this.load(this.manifestUrl, true) as Promise<SearchManifest>;
      this.files.clear();
      return this.run(query);
    }
  }

  private async run(query: string): Promise<SearchPage> {
    if (!isSearchable(query)) return emptyPage();
    const words = queryWords(query);
    const manifest = await (this.manifest ??= this.load(this.manifestUrl, false) as Promise<SearchManifest>);
    const folder = this.manifestUrl.replace(/[^/]*$/, '');
    const candidates = await this.candidates(manifest, `${folder}${manifest.id}/`, words);
    if (candidates && candidates.length === 0) return emptyPage();
    const chunks = chunkOrder(manifest, candidates);
    const wanted = candidates ? new Set(candidates) : undefined;
    const recordsUrl = (chunk: number) => `${folder}${manifest.r[Math.floor(chunk / manifest.s)]}/r/${chunk}.json`;
    return this.page({ recordsUrl, size: manifest.c, chunks, words, wanted }, 0);
  }

  /** Ordinals that hold every usable trigram, ascending; undefined when no trigram narrows the search. */
  private async candidates(manifest: SearchManifest, base: string, words: string[]): Promise<number[] | undefined> {
    const stop = new Set(manifest.stop);
    const grams = pickOrder(words.map((word) => trigrams(word).filter((gram) => !stop.has(gram))));
    if (grams.length === 0) return undefined;
    const buckets: number[] = [];
    for (const gram of grams) {
      const bucket = bucketOf(gram, manifest.b);
      if (!buckets.includes(bucket) && buckets.length < MAX_BUCKETS) buckets.push(bucket);
    }
    const maps = new Map<number, SearchBucket>();
    await Promise.all(buckets.map(async (bucket) => maps.set(bucket, (await this.file(`${base}b/${bucket}.json`)) as SearchBucket)));
    const lists: number[][] = [];
    for (const gram of grams) {
      const map = maps.get(bucketOf(gram, manifest.b));
      if (!map) continue;
      const list = map[gram];
      if (!list) return []; // no title holds this trigram, so none holds the word
      lists.push(ungap(list));
    }
    lists.sort((a, b) => a.length - b.length);
    return lists.reduce(intersect);
  }

  private async page(run: Run, from: number): Promise<SearchPage> {
    const { recordsUrl, size, chunks, words, wanted } = run;
    const hits: Hit[] = [];
    let at = from;
    let batch = 1;
    while (at < chunks.length && hits.length < PAGE_HITS && at - from < MAX_CHUNKS_PER_PAGE) {
      const slice = chunks.slice(at, Math.min(at + batch, from + MAX_CHUNKS_PER_PAGE));
      const records = await Promise.all(slice.map((chunk) => this.file(recordsUrl(chunk)) as Promise<SearchRecord[]>));
      slice.forEach((chunk, i) => hits.push(...verify(records[i]!, chunk * size, words, wanted)));
      at += slice.length;
      batch *= 2;
    }
    const more = at < chunks.length;
    return { hits, more, next: () => (more ? this.page(run, at) : Promise.resolve(emptyPage())) };
  }

  private file(url: string): Promise<unknown> {
    let pending = this.files.get(url);
    if (!pending) {
      pending = this.load(url, false);
      this.files.set(url, pending);
      pending.catch(() => this.files.delete(url));
    }
    return pending;
  }

  private load(url: string, reload: boolean): Promise<unknown> {
    return this.fetchJson(url, reload);
  }
}

function emptyPage(): SearchPage {
  return { hits: [], more: false, next: () => Promise.resolve(emptyPage()) };
}

/** Trigrams to try first: from the longest words, each word's ends before its middle. */
function pickOrder(perWord: string[][]): string[] {
  const lists = perWord
    .filter((grams) => grams.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((grams) => [grams[0]!, grams[grams.length - 1]!, ...grams.slice(1, -1)]);
  const out: string[] = [];
  for (let i = 0; lists.some((list) => i < list.length); i++) {
    for (const list of lists) if (i < list.length && !out.includes(list[i]!)) out.push(list[i]!);
  }
  return out;
}

/** Chunks to read, newest first: those holding candidates, or all of them. */
function chunkOrder(manifest: SearchManifest, candidates?: number[]): number[] {
  if (!candidates) return Array.from({ length: Math.ceil(manifest.n / manifest.c) }, (_, i) => Math.ceil(manifest.n / manifest.c) - 1 - i);
  const chunks = new Set<number>();
  for (let i = candidates.length - 1; i >= 0; i--) chunks.add(Math.floor(candidates[i]! / manifest.c));
  return [...chunks];
}

function verify(records: SearchRecord[], first: number, words: string[], wanted?: Set<number>): Hit[] {
  const hits: Hit[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const ordinal = first + i;
    if (wanted && !wanted.has(ordinal)) continue;
    const [title, slug, category, subcategory] = records[i]!;
    if (titleMatches(fold(title), words)) hits.push({ ordinal, title, slug, category, subcategory });
  }
  return hits;
}

function ungap(list: number[]): number[] {
  const out = new Array<number>(list.length);
  let value = 0;
  for (let i = 0; i < list.length; i++) out[i] = value = i === 0 ? list[0]! : value + list[i]!;
  return out;
}

function intersect(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      out.push(a[i]!);
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return out;
}
