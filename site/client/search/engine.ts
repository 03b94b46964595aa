/**
 * Query the sharded search index (site/indexes/searchIndex.ts). A query reads
 * the manifest and, per query word, the shard of its first three letters in
 * the base and, when there is one, in the delta (and, for a long word with no
 * exact or prefix match there, the shards of its three variant keys, where
 * words one typo away are listed); base articles the manifest tombstones are
 * never hits. The articles that
 * match every word are ranked (title over topics over description, exact over
 * prefix over typo, then newest first), and the record chunks of the best are
 * read for their titles and links. Pure logic over an injected fetcher, so the
 * same code measures its downloads in Node.
 */
import {
  bucketOf,
  homeKey,
  isSearchable,
  KEY_CHARS,
  matchWord,
  queryWords,
  variantKeys,
  words as wordsOf,
  MATCH,
  TYPO_MIN_CHARS,
  type SearchManifest,
  type SearchPostings,
  type SearchRecord,
  type SearchShard,
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
  /** Higher ranks first (see score()). */
  score: number;
}

export interface SearchPage {
  hits: Hit[];
  /** More chunks may hold further hits: call next(). */
  more: boolean;
  next(): Promise<SearchPage>;
}

/** What the index says about one query word. */
interface WordMatch {
  word: string;
  /** Best score per article, from the words' lists. */
  scores: Map<number, number>;
  /** A matching word is too common in titles to have a list: check the title of each record too. */
  checkTitles: boolean;
}

/** One query's state between pages. */
interface Run {
  manifest: SearchManifest;
  recordsUrl: (chunk: number) => string;
  matches: WordMatch[];
  /** Tombstones: base ordinals of articles changed or removed since the base, never hits. */
  dead: Set<number>;
  /** Ranked candidate ordinals, or undefined: scan every chunk, newest first. */
  ranked?: number[];
}

export const PAGE_HITS = 24;
const MAX_CHUNKS_PER_PAGE = 24;
const FIELD_COUNT = 3;

/** A match's rank: its field first (title 2, topics 1, description 0), then its quality. */
function score(field: number, quality: number): number {
  return (FIELD_COUNT - 1 - field) * (MATCH.exact + 1) + quality;
}

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
    const words = queryWords(query);
    if (!isSearchable(query) || words.length === 0) return emptyPage();
    const manifest = await (this.manifest ??= this.load(this.manifestUrl, false) as Promise<SearchManifest>);
    const folder = this.manifestUrl.replace(/[^/]*$/, '');
    // The base's shards, then the delta's (articles added or changed since the base), if any.
    const shardSets = [{ id: manifest.id, b: manifest.b }, ...(manifest.d ? [manifest.d] : [])].map(
      (set) => (key: string) => `${folder}${set.id}/w/${bucketOf(key, set.b)}.json`,
    );
    const dead = new Set(manifest.t ? ungap(manifest.t) : []);
    const matches = await Promise.all(words.map((word) => this.lookup(word, shardSets, dead)));
    const listed = matches.filter((m) => !m.checkTitles);
    if (listed.some((m) => m.scores.size === 0)) return emptyPage();
    const recordsUrl = (chunk: number) => `${folder}${manifest.r[Math.floor(chunk / manifest.s)]}/r/${chunk}.json`;
    const run: Run = { manifest, recordsUrl, matches, dead, ranked: listed.length > 0 ? rank(listed, matches) : undefined };
    return this.page(run, 0);
  }

  /**
   * The words of the index that match one query word, and their articles'
   * scores, from every shard set: a word may be listed in the base and in
   * the delta, each with its own articles. Tombstoned ordinals are left out.
   */
  private async lookup(word: string, shardSets: ((key: string) => string)[], dead: Set<number>): Promise<WordMatch> {
    const match: WordMatch = { word, scores: new Map(), checkTitles: false };
    // A short word's matches spread over many shards: titles are checked instead.
    if ([...word].length < KEY_CHARS) return { ...match, checkTitles: true };
    const homes = (await Promise.all(shardSets.map((shardUrl) => this.file(shardUrl(homeKey(word)))))) as SearchShard[];
    // indexed word → its quality and, per shard set, its postings there
    const found = new Map<string, { quality: number; postings: Map<number, SearchPostings> }>();
    const add = (indexed: string, quality: number, set: number, postings: SearchPostings) => {
      let entry = found.get(indexed);
      if (!entry) found.set(indexed, (entry = { quality, postings: new Map() }));
      entry.postings.set(set, postings);
    };
    const has = (indexed: string, set: number) => found.get(indexed)?.postings.has(set) ?? false;
    // Only the words of the query word's own key: a shard also holds other keys' words, by hash, and
    // what a query finds must not hang on which ones (a delta has fewer shards than its base).
    // Words one typo away under other keys are looked up below, when nothing better matched.
    const key = homeKey(word);
    homes.forEach((home, set) => {
      for (const [indexed, postings] of Object.entries(home.w)) {
        if (homeKey(indexed) !== key) continue;
        const quality = matchWord(word, indexed);
        if (quality >= 0) add(indexed, quality, set, postings);
      }
    });
    const exactOrPrefix = [...found.values()].some((f) => f.quality > MATCH.typo);
    if (!exactOrPrefix && [...word].length >= TYPO_MIN_CHARS) {
      // A typo in the first two letters: the word is listed under a variant key the query shares.
      await Promise.all(
        shardSets.map(async (shardUrl, set) => {
          const shards = [homes[set]!, ...((await Promise.all(variantKeys(word).map((key) => this.file(shardUrl(key))))) as SearchShard[])];
          const elsewhere = new Set<string>();
          for (const shard of shards) {
            for (const [indexed, postings] of Object.entries(shard.w)) {
              if (!has(indexed, set) && matchWord(word, indexed) === MATCH.typo) add(indexed, MATCH.typo, set, postings);
            }
            for (const indexed of shard.v ?? []) if (!has(indexed, set) && matchWord(word, indexed) === MATCH.typo) elsewhere.add(indexed);
          }
          await Promise.all(
            [...elsewhere].map(async (indexed) => {
              const own = (await this.file(shardUrl(homeKey(indexed)))) as SearchShard;
              const postings = own.w[indexed];
              if (postings) add(indexed, MATCH.typo, set, postings);
            }),
          );
        }),
      );
    }
    for (const { quality, postings: sets } of found.values()) {
      for (const postings of sets.values()) {
        postings.forEach((list, field) => {
          if (list === null) {
            if (field === 0) match.checkTitles = true;
            return;
          }
          const value = score(field, quality);
          for (const ordinal of ungap(list)) {
            if (!dead.has(ordinal) && (match.scores.get(ordinal) ?? -1) < value) match.scores.set(ordinal, value);
          }
        });
      }
    }
    return match;
  }

  private async page(run: Run, from: number): Promise<SearchPage> {
    const { manifest, ranked } = run;
    const hits: Hit[] = [];
    let at = from;
    let chunksRead = 0;
    if (ranked) {
      // In rank order: each step reads the chunks of the next candidates, a page at most MAX_CHUNKS_PER_PAGE.
      while (at < ranked.length && hits.length < PAGE_HITS && chunksRead < MAX_CHUNKS_PER_PAGE) {
        const chunks = new Set<number>();
        let end = at;
        while (end < ranked.length && end - at < PAGE_HITS - hits.length) {
          const chunk = Math.floor(ranked[end]! / manifest.c);
          if (!chunks.has(chunk) && chunks.size + chunksRead >= MAX_CHUNKS_PER_PAGE) break;
          chunks.add(chunk);
          end++;
        }
        const records = await this.records(run, [...chunks]);
        for (const ordinal of ranked.slice(at, end)) {
          const hit = check(run, ordinal, records.get(Math.floor(ordinal / manifest.c))![ordinal % manifest.c]!);
          if (hit) hits.push(hit);
        }
        chunksRead += chunks.size;
        at = end;
      }
      const more = at < ranked.length;
      return { hits, more, next: () => (more ? this.page(run, at) : Promise.resolve(emptyPage())) };
    }
    // Every word is too common to have a list: the newest titles, checked a chunk at a time.
    const total = Math.ceil(manifest.n / manifest.c);
    let batch = 1;
    while (at < total && hits.length < PAGE_HITS && at - from < MAX_CHUNKS_PER_PAGE) {
      const chunks = Array.from({ length: Math.min(batch, total - at, from + MAX_CHUNKS_PER_PAGE - at) }, (_, i) => total - 1 - (at + i));
      const records = await this.records(run, chunks);
      const found: Hit[] = [];
      for (const chunk of chunks) {
        const list = records.get(chunk)!;
        for (let i = list.length - 1; i >= 0; i--) {
          const hit = check(run, chunk * manifest.c + i, list[i]!);
          if (hit) found.push(hit);
        }
      }
      hits.push(...found.sort(byRank));
      at += chunks.length;
      batch *= 2;
    }
    const more = at < total;
    return { hits, more, next: () => (more ? this.page(run, at) : Promise.resolve(emptyPage())) };
  }

  private async records(run: Run, chunks: number[]): Promise<Map<number, SearchRecord[]>> {
    const lists = await Promise.all(chunks.map((chunk) => this.file(run.recordsUrl(chunk)) as Promise<SearchRecord[]>));
    return new Map(chunks.map((chunk, i) => [chunk, lists[i]!]));
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

/** Articles every listed word matches, best first, then newest first. */
function rank(listed: WordMatch[], all: WordMatch[]): number[] {
  const [smallest, ...rest] = [...listed].sort((a, b) => a.scores.size - b.scores.size);
  const total = new Map<number, number>();
  for (const [ordinal, value] of smallest!.scores) {
    let sum = value;
    for (const other of rest) {
      const s = other.scores.get(ordinal);
      if (s === undefined) {
        sum = -1;
        break;
      }
      sum += s;
    }
    // Words checked against titles later add what their lists know now; the title check may add more.
    if (sum >= 0) total.set(ordinal, sum + all.filter((m) => m.checkTitles).reduce((s, m) => s + Math.max(0, m.scores.get(ordinal) ?? 0), 0));
  }
  return [...total.keys()].sort((a, b) => total.get(b)! - total.get(a)! || b - a);
}

/** The record as a hit when every word matches it, with its score. */
function check(run: Run, ordinal: number, record: SearchRecord): Hit | undefined {
  if (run.dead.has(ordinal)) return undefined;
  const [title, slug, category, subcategory] = record;
  let titleWords: string[] | undefined;
  let total = 0;
  for (const match of run.matches) {
    let best = match.scores.get(ordinal) ?? -1;
    if (match.checkTitles) {
      titleWords ??= wordsOf(title);
      for (const word of titleWords) best = Math.max(best, titleScore(match.word, word));
    }
    if (best < 0) return undefined;
    total += best;
  }
  return { ordinal, title, slug, category, subcategory, score: total };
}

function titleScore(query: string, word: string): number {
  const quality = matchWord(query, word);
  return quality < 0 ? -1 : score(0, quality);
}

function byRank(a: Hit, b: Hit): number {
  return b.score - a.score || b.ordinal - a.ordinal;
}

function ungap(list: number[]): number[] {
  const out = new Array<number>(list.length);
  let value = 0;
  for (let i = 0; i < list.length; i++) out[i] = value = i === 0 ? list[0]! : value + list[i]!;
  return out;
}
