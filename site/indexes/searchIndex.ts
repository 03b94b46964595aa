/**
 * The sharded search index (issue #3, widened by issue 18, made incremental
 * by issue 13): a small manifest, the words of every title, topic and
 * description with their articles per field, in shard files by the words'
 * first three letters (and, for typo tolerance, listed again under three
 * variant keys), and article records in fixed-size chunks grouped in
 * content-hashed segments. A query fetches the manifest, one shard per query
 * word (more for a long word that matches nothing there), and the record
 * chunks of its best candidates, never the whole title list. Shapes and the
 * text rules are in site/islands/search/text.ts, shared with the browser.
 *
 * Incremental, LSM-style: a base index of every article, plus a delta for
 * the articles added or changed since the base (their ordinals follow the
 * base's) and tombstones for base articles changed or removed since. A
 * rebuild tokenises only the delta's articles and keeps the base's shard
 * files (thousands at 100,000 articles) as they are: not made, not written,
 * not uploaded again. When the delta grows past compactAt(), or there is no
 * base to build on, the build makes a new base.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SiteModel } from '../model/siteModel.ts';
import type { Article } from '../../shared/types.ts';
import { hexDigest } from '../../shared/digest.ts';
import {
  bucketOf,
  FIELDS,
  homeKey,
  variantKeys,
  words as textWords,
  type SearchManifest,
  type SearchPostings,
  type SearchRecord,
  type SearchShard,
  type SearchShardSet,
} from '../islands/search/text.ts';

export const SEARCH_MANIFEST = 'search/manifest.json';
/** What the next build needs to add a delta to this base. A dot file: in the release, never deployed or served. */
export const SEARCH_BASE_STATE = '.felt/search-base.json';
/** Records per chunk: a result costs about one small file at most. */
export const RECORD_CHUNK = 8;
/** Record chunks per segment folder: what one new article makes a rebuild rewrite. */
export const SEGMENT_CHUNKS = 64;
/** Shard files aim at about this many bytes of JSON each. */
const SHARD_TARGET_BYTES = 2048;
const STATE_VERSION = 1;
/** Characters of an article's digest kept in the base state: 64 bits tell a changed file apart. */
const KEY_CHARS = 16;

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

/**
 * An article as the index plans with it: its slug, and the digest of what its
 * entry is made from. While the template key (settings, categories, UI strings,
 * felt's code) is the same, an entry is a pure function of its file, so the
 * file's digest tells whether the base's entry still holds.
 */
export interface SearchSource {
  slug: string;
  key: string;
}

/** The base, as .felt/search-base.json keeps it for the next build. */
export interface SearchBaseState {
  v: typeof STATE_VERSION;
  c: number;
  s: number;
  /** The base's shard set: search/{id}/w/0 … b-1. */
  id: string;
  b: number;
  /** Articles in the base: ordinals 0 … n-1. */
  n: number;
  /** The base's record segments; a delta keeps all but a last, partial one. */
  r: string[];
  /** The records of that last, partial segment: the delta's first chunks continue it. */
  tail: SearchRecord[];
  /** Per ordinal, the article's slug and the start of its digest. */
  slugs: string[];
  keys: string[];
}

export interface SearchIndexPlan {
  /** Files to write (unchanged ones are skipped by the writer). */
  files: OutputFile[];
  /** The base's files this index still uses as they are: kept from the current release, neither made nor written. */
  kept: string[];
  /** A new base's state, when this build made one. */
  state?: SearchBaseState;
  /** Articles in the delta, and base ordinals tombstoned. */
  delta: number;
  tombstones: number;
}

/**
 * How big a delta (articles plus tombstones) may grow before the next build
 * makes a new base. A delta costs every rebuild its tokenising and its shard
 * files, and every query its tombstones in the manifest; a new base costs one
 * build the whole index and a deploy thousands of shard files. With k new
 * articles a night on a site of n, the nightly average, delta/2 + n·k/delta,
 * is least at a delta of √(2nk): about 2,000 at 100,000 articles and 20 a
 * night, about 630 at 10,000. n/32 (3,125 at 100,000) sits near that on the
 * flat part of the curve and keeps the manifest's tombstones a few KB at
 * most; 256 lets a small site go weeks between bases.
 */
export function compactAt(articles: number): number {
  return Math.max(256, Math.ceil(articles / 32));
}

/** Builds and writes the model's search index; see the header for what it reuses. */
export function writeSearchIndex(
  model: SiteModel,
  out: {
    /** The current release's files → digests (the previous build manifest's `others`), when this build may reuse them. */
    previous?: ReadonlyMap<string, string>;
    /** The current release's folder, which holds the base state. */
    currentRelease?: string;
    write(file: string, content: string): void;
    /** Records a file of the current release as part of this one, unchanged. */
    keep(file: string, digest: string): void;
  },
): { base: boolean; delta: number; tombstones: number; made: number; kept: number } {
  const sources = model.articles.map((article) => ({ slug: article.slug, key: article.digest }));
  const entryOf = (i: number) => searchEntry(model, model.articles[i]!);
  const previous: ReadonlyMap<string, string> = out.previous ?? new Map();
  let plan = planSearchIndex(sources, entryOf, readBaseState(previous, out.currentRelease));
  // A base file the current release lacks (removed by hand, an older felt): a new base.
  if (plan.kept.some((file) => !previous.has(file))) plan = planSearchIndex(sources, entryOf);
  for (const file of plan.files) out.write(file.path, file.content);
  for (const file of plan.kept) out.keep(file, previous.get(file)!);
  if (plan.state) out.write(SEARCH_BASE_STATE, JSON.stringify(plan.state));
  else out.keep(SEARCH_BASE_STATE, previous.get(SEARCH_BASE_STATE)!);
  // A summary, not the plan: the files' text is not held while the build goes on.
  return { base: plan.state !== undefined, delta: plan.delta, tombstones: plan.tombstones, made: plan.files.length, kept: plan.kept.length };
}

/** The base state of the current release, when there is one this build may build on. */
function readBaseState(previous: ReadonlyMap<string, string>, release: string | undefined): SearchBaseState | undefined {
  if (!release || !previous.has(SEARCH_BASE_STATE)) return undefined;
  try {
    const state = JSON.parse(readFileSync(path.join(release, SEARCH_BASE_STATE), 'utf8')) as SearchBaseState;
    const valid =
      state.v === STATE_VERSION &&
      state.c === RECORD_CHUNK &&
      state.s === SEGMENT_CHUNKS &&
      state.slugs.length === state.n &&
      state.keys.length === state.n &&
      state.tail.length === state.n % (RECORD_CHUNK * SEGMENT_CHUNKS);
    return valid ? state : undefined;
  } catch {
    return undefined; // unreadable: a new base
  }
}

/** The model's articles as search entries, filed under their first placement. */
export function searchEntries(model: SiteModel): SearchEntry[] {
  return model.articles.map((article) => searchEntry(model, article));
}

function searchEntry(model: SiteModel, article: Article): SearchEntry {
  const { categories } = model.content;
  const placements = model.index.placementsOf(article);
  const first = placements[0];
  const category = first ? categories.indexOf(first.category) : -1;
  const subcategory = first && category >= 0 ? first.category.children.indexOf(first.subcategory) : -1;
  const topics = [...new Set(placements.flatMap((p) => p.subsubcategories))];
  return { title: article.title, slug: article.slug, date: article.date, description: article.description, topics, category, subcategory };
}

/** A whole index (a base, no delta) of these entries: what a cold build writes. */
export function buildSearchFiles(entries: SearchEntry[]): OutputFile[] {
  return planSearchIndex(
    entries.map((entry) => ({ slug: entry.slug, key: '' })),
    (i) => entries[i]!,
  ).files;
}

/**
 * The index of these articles: on `base`, a delta of the articles whose slug
 * or key the base does not have and tombstones for the base's others, unless
 * that passes compactAt(); otherwise a new base. Entries are made (and their
 * text tokenised) only for the articles indexed now.
 */
export function planSearchIndex(sources: SearchSource[], entryOf: (index: number) => SearchEntry, base?: SearchBaseState): SearchIndexPlan {
  if (base) {
    const ordinalOf = new Map<string, number>();
    base.slugs.forEach((slug, ordinal) => ordinalOf.set(slug, ordinal));
    const alive = new Uint8Array(base.n);
    const fresh: number[] = [];
    sources.forEach((source, index) => {
      const ordinal = ordinalOf.get(source.slug);
      if (ordinal !== undefined && !alive[ordinal] && base.keys[ordinal] === keyOf(source.key)) alive[ordinal] = 1;
      else fresh.push(index);
    });
    const dead: number[] = [];
    for (let ordinal = 0; ordinal < base.n; ordinal++) if (!alive[ordinal]) dead.push(ordinal);
    if (fresh.length + dead.length <= compactAt(sources.length)) return deltaIndex(base, fresh.map(entryOf), dead);
  }
  return baseIndex(sources, entryOf);
}

function baseIndex(sources: SearchSource[], entryOf: (index: number) => SearchEntry): SearchIndexPlan {
  // Sorted as a list of indexes: no pair object per article.
  const made = sources.map((_, i) => entryOf(i));
  const order = Array.from(made.keys()).sort((a, b) => byAge(made[a]!, made[b]!));
  const entries = order.map((i) => made[i]!);
  made.length = 0;
  const n = entries.length;
  const shards = shardFiles(entries, 0, n);
  const records = recordFiles(n, (i) => recordOf(entries[i]!), 0);
  const perSegment = RECORD_CHUNK * SEGMENT_CHUNKS;
  const manifest: SearchManifest = { v: 4, id: shards.set.id, b: shards.set.b, s: SEGMENT_CHUNKS, r: records.segments, n, c: RECORD_CHUNK };
  const state: SearchBaseState = {
    v: STATE_VERSION,
    c: RECORD_CHUNK,
    s: SEGMENT_CHUNKS,
    id: shards.set.id,
    b: shards.set.b,
    n,
    r: records.segments,
    tail: entries.slice(n - (n % perSegment)).map(recordOf),
    slugs: entries.map((e) => e.slug),
    keys: order.map((i) => keyOf(sources[i]!.key)),
  };
  const files = [{ path: SEARCH_MANIFEST, content: JSON.stringify(manifest) }, ...shards.files, ...records.files];
  return { files, kept: [], state, delta: 0, tombstones: 0 };
}

function deltaIndex(base: SearchBaseState, fresh: SearchEntry[], dead: number[]): SearchIndexPlan {
  const delta = [...fresh].sort(byAge);
  const n = base.n + delta.length;
  // The base's whole segments stay; its last, partial one is made again with the delta's first records.
  const whole = Math.floor(base.n / (RECORD_CHUNK * SEGMENT_CHUNKS));
  const kept = Array.from({ length: base.b }, (_, i) => `search/${base.id}/w/${i}.json`);
  for (let segment = 0; segment < whole; segment++) {
    for (let i = 0; i < SEGMENT_CHUNKS; i++) kept.push(`search/${base.r[segment]}/r/${segment * SEGMENT_CHUNKS + i}.json`);
  }
  const records = recordFiles(
    base.tail.length + delta.length,
    (i) => (i < base.tail.length ? base.tail[i]! : recordOf(delta[i - base.tail.length]!)),
    whole * SEGMENT_CHUNKS,
  );
  const shards = delta.length > 0 ? shardFiles(delta, base.n, n) : undefined;
  const manifest: SearchManifest = {
    v: 4,
    id: base.id,
    b: base.b,
    ...(shards && { d: shards.set }),
    ...(dead.length > 0 && { t: gaps(dead) }),
    s: SEGMENT_CHUNKS,
    r: [...base.r.slice(0, whole), ...records.segments],
    n,
    c: RECORD_CHUNK,
  };
  const files = [{ path: SEARCH_MANIFEST, content: JSON.stringify(manifest) }, ...(shards?.files ?? []), ...records.files];
  return { files, kept, delta: delta.length, tombstones: dead.length };
}

/** Oldest first (by date, then slug): ordinals count from the oldest article. */
function byAge(a: SearchEntry, b: SearchEntry): number {
  return a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? -1 : 1;
}

function recordOf(entry: SearchEntry): SearchRecord {
  return [entry.title, entry.slug, entry.category, entry.subcategory];
}

function keyOf(digest: string): string {
  return digest.slice(0, KEY_CHARS);
}

/** The word shards of these entries, the first at ordinal `first`; `total` articles in the whole index decide what is too common to list. */
function shardFiles(entries: SearchEntry[], first: number, total: number): { set: SearchShardSet; files: OutputFile[] } {
  const postings = collectPostings(entries, first);
  const { words: wordList } = postings;
  // A word in more than 1 article's field in 16 (and more than 2,048: below that a whole list costs
  // a few KB) barely narrows a search: its list is left out, and the browser checks titles instead
  // (a word that common in descriptions only matches titles and topics).
  const common = Math.max(2048, Math.ceil(total / 16));
  const shardWords = new Map<string, { own: number[]; variants: string[] }>();
  const keyOf = (key: string) => {
    let entry = shardWords.get(key);
    if (!entry) shardWords.set(key, (entry = { own: [], variants: [] }));
    return entry;
  };
  let bytes = 0;
  // Word numbers in the words' order (each word once, so no two compare equal).
  const sorted = Array.from(wordList.keys()).sort((a, b) => (wordList[a]! < wordList[b]! ? -1 : 1));
  for (const id of sorted) {
    const word = wordList[id]!;
    bytes += word.length * 3 + 12;
    for (let field = 0; field < FIELDS.length; field++) bytes += Math.min(postings.count(id, field), common) * 3;
    keyOf(homeKey(word)).own.push(id);
    for (const key of variantKeys(word)) keyOf(key).variants.push(word);
  }

  const buckets = bucketCount(bytes);
  // Each shard's keys in order, so that its words go into it in the order they always did (the JSON's key order).
  const keysOf: string[][] = Array.from({ length: buckets }, () => []);
  for (const key of [...shardWords.keys()].sort()) keysOf[bucketOf(key, buckets)]!.push(key);
  // A shard's word lists exist as arrays only while its JSON is made.
  const json: string[] = [];
  for (let i = 0; i < buckets; i++) {
    const shard: SearchShard = { w: {} };
    for (const key of keysOf[i]!) {
      const { own, variants } = shardWords.get(key)!;
      for (const id of own) shard.w[wordList[id]!] = postings.coded(id, common);
      if (variants.length > 0) (shard.v ??= []).push(...variants);
    }
    json.push(JSON.stringify(shard));
  }
  const id = indexId([String(buckets), ...json]);
  return { set: { id, b: buckets }, files: json.map((content, i) => ({ path: `search/${id}/w/${i}.json`, content })) };
}

/**
 * For every word of the entries, per field, the ordinals of the articles that hold it: one typed array of all the
 * lists end to end (a word's field is a slot, word number × fields + field), where a JavaScript array a list held
 * 8 bytes a number and room to grow: most of the index's memory while it was made.
 */
function collectPostings(entries: SearchEntry[], first: number) {
  const fields = FIELDS.length;
  const numbers = new Map<string, number>();
  const words: string[] = [];
  // Pass one: each article's slots in article order, and where each article's run ends.
  let slotsSeen = new Int32Array(1024);
  let seen = 0;
  const ends = new Int32Array(entries.length);
  entries.forEach((entry, i) => {
    FIELDS.map((field) => (field === 'topics' ? entry.topics.join(' ') : entry[field])).forEach((text, field) => {
      for (const word of new Set(textWords(text))) {
        let number = numbers.get(word);
        if (number === undefined) numbers.set(word, (number = words.push(word) - 1));
        if (seen === slotsSeen.length) slotsSeen = grown(slotsSeen);
        slotsSeen[seen++] = number * fields + field;
      }
    });
    ends[i] = seen;
  });
  numbers.clear();
  // Pass two, a counting sort: each slot's list starts where the lists before it end, in ascending ordinals.
  const starts = new Int32Array(words.length * fields + 1);
  for (let k = 0; k < seen; k++) starts[slotsSeen[k]! + 1]!++;
  for (let slot = 0; slot < words.length * fields; slot++) starts[slot + 1]! += starts[slot]!;
  const next = starts.slice(0, -1);
  const ordinals = new Int32Array(seen);
  let k = 0;
  for (let i = 0; i < entries.length; i++) for (; k < ends[i]!; k++) ordinals[next[slotsSeen[k]!]!++] = first + i;
  slotsSeen = new Int32Array(0);

  const count = (word: number, field: number) => starts[word * fields + field + 1]! - starts[word * fields + field]!;
  return {
    words,
    count,
    /** A word's lists as a shard holds them: gap-coded, or null past `common` articles. */
    coded(word: number, common: number): SearchPostings {
      const lists: (number[] | null)[] = [];
      for (let field = 0; field < fields; field++) {
        const from = starts[word * fields + field]!;
        const length = count(word, field);
        if (length > common) {
          lists.push(null);
          continue;
        }
        lists.push(gaps(ordinals.subarray(from, from + length)));
      }
      return lists as SearchPostings;
    },
  };
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 2);
  larger.set(array);
  return larger;
}

/**
 * Record chunk files of `count` records from chunk `firstChunk` (a segment's first) on, in segments named by their
 * content. Each record is made as its chunk is: no list of them all.
 */
function recordFiles(count: number, recordAt: (index: number) => SearchRecord, firstChunk: number): { segments: string[]; files: OutputFile[] } {
  const chunkJson: string[] = [];
  for (let i = 0; i < count; i += RECORD_CHUNK) {
    const chunk: SearchRecord[] = [];
    for (let j = i; j < Math.min(i + RECORD_CHUNK, count); j++) chunk.push(recordAt(j));
    chunkJson.push(JSON.stringify(chunk));
  }
  const segments: string[] = [];
  for (let first = 0; first < chunkJson.length; first += SEGMENT_CHUNKS) {
    segments.push(indexId([String(RECORD_CHUNK), String(firstChunk + first), ...chunkJson.slice(first, first + SEGMENT_CHUNKS)]));
  }
  const files = chunkJson.map((content, i) => ({ path: `search/${segments[Math.floor(i / SEGMENT_CHUNKS)]}/r/${firstChunk + i}.json`, content }));
  return { segments, files };
}

/** Ascending ordinals as the first one, then the gaps: small numbers compress well. */
function gaps(list: ArrayLike<number>): number[] {
  return Array.from(list, (value, i) => (i === 0 ? value : value - list[i - 1]!));
}

function bucketCount(bytes: number): number {
  let buckets = 1;
  while (buckets < 16384 && bytes / buckets > SHARD_TARGET_BYTES) buckets *= 2;
  return buckets;
}

/** A folder's name in search/: its parts, each ended by NUL, as 12 hex characters (see hexDigest). */
function indexId(parts: string[]): string {
  return hexDigest(
    parts.flatMap((part) => [part, '\0']),
    12,
  );
}
