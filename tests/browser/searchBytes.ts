/**
 * What one search query downloads, measured: a deterministic corpus of N
 * synthetic titles is indexed with the build's own code, and the browser's
 * own search engine runs queries against the files in memory, counting the
 * gzip and brotli size of every file it fetches.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildSearchFiles, compactAt, planSearchIndex, type SearchEntry } from '../../site/indexes/searchIndex.ts';
import { SearchEngine } from '../../site/client/search/engine.ts';

const TOPIC =
  'poker betting odds bankroll strategy tournament cash game holdem omaha bluff tells variance sportsbook parlay handicap spread moneyline roulette blackjack baccarat craps slots casino bonus wagering limits addiction exclusion community forum management hedging arbitrage value line movement closing expected probability statistics psychology tilt discipline session review study group home club online live esports football tennis basketball horse racing'.split(
    ' ',
  );
const GLUE =
  'the a of to in for and how why what your with without from beyond about explained guide tips mistakes basics advanced simple complete practical honest'.split(
    ' ',
  );

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS =
  "defi wallets,live dealer,hold'em ranges,bankroll management,odds formats,tilt control,self exclusion,parlay math,esports markets,home games,bonus terms,variance,closing line value,poker tells".split(
    ',',
  );

/**
 * Titles of 5 to 9 words; one word in four is a rarer made-up name, as real
 * titles carry names. Descriptions of 12 to 24 words (one in ten made up),
 * one or two topics from a short list, as the bundled articles have.
 */
export function syntheticCorpus(n: number, seed = 7): SearchEntry[] {
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const rare = () => Array.from({ length: 5 + Math.floor(next() * 5) }, () => pick([...'abcdefghijklmnoprstuvwyz'])).join('');
  const entries: SearchEntry[] = [];
  for (let i = 0; i < n; i++) {
    const length = 5 + Math.floor(next() * 5);
    const words = Array.from({ length }, () => (next() < 0.25 ? rare() : next() < 0.6 ? pick(TOPIC) : pick(GLUE)));
    const title = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
    const described = Array.from({ length: 12 + Math.floor(next() * 13) }, () => (next() < 0.1 ? rare() : next() < 0.5 ? pick(TOPIC) : pick(GLUE)));
    const description = described.join(' ') + '.';
    const topics = [...new Set(Array.from({ length: 1 + Math.floor(next() * 2) }, () => pick(TOPICS)))];
    const date = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 10);
    entries.push({ title, slug: `${words.join('-')}-${i}`, date, description, topics, category: i % 7, subcategory: (i >> 3) % 6 });
  }
  return entries;
}

export interface QueryBytes {
  query: string;
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
  hits: number;
}

export const QUERIES = [
  'poker',
  'bankroll management',
  'strategy poker',
  'omaha tips',
  'the',
  'odds betting guide',
  'zzqx',
  'tennis hedging',
  'holdem tournament mistakes',
  'abc',
  // typos (issue 18): one letter dropped, swapped, changed; a typo in the first two letters
  'managment',
  'holdem',
  'tournmaent strategy',
  'opker',
  'bankrol managment tips',
];

/**
 * The index of n synthetic articles as files (path with a leading slash → JSON): a cold build's;
 * or, with `delta`, an incremental build's whose delta is as big as compactAt() allows, all of it
 * articles added since the base ('added': the biggest delta shards) or removed since ('removed':
 * the most tombstones in the manifest, spread over the whole base).
 */
export function indexFiles(n: number, delta?: 'added' | 'removed'): Map<string, string> {
  const corpus = syntheticCorpus(n);
  const files = (list: { path: string; content: string }[], into = new Map<string, string>()) => {
    for (const file of list) into.set(`/${file.path}`, file.content);
    return into;
  };
  if (!delta) return files(buildSearchFiles(corpus));
  const sources = (entries: SearchEntry[]) => entries.map((entry) => ({ slug: entry.slug, key: entry.slug }));
  // The limit counts the articles the site has now: n after additions, fewer after removals.
  const limit = delta === 'added' ? compactAt(n) : compactAt(n - compactAt(n));
  const step = Math.floor(n / limit);
  const before = delta === 'added' ? corpus.slice(0, n - limit) : corpus;
  const after = delta === 'added' ? corpus : corpus.filter((_, i) => i % step !== 0 || i / step >= limit);
  const base = planSearchIndex(sources(before), (i) => before[i]!);
  const next = planSearchIndex(sources(after), (i) => after[i]!, base.state);
  if (next.state || next.delta + next.tombstones !== limit) throw new Error(`expected a delta of ${limit}, got ${next.delta} + ${next.tombstones}`);
  return files(next.files, files(base.files));
}

export async function measureQueries(n: number, queries = QUERIES, delta?: 'added' | 'removed'): Promise<QueryBytes[]> {
  const files = indexFiles(n, delta);
  const out: QueryBytes[] = [];
  for (const query of queries) {
    const fetched: string[] = [];
    const engine = new SearchEngine('/search/manifest.json', async (url) => {
      const text = files.get(url);
      if (text === undefined) throw new Error(`missing ${url}`);
      fetched.push(text);
      return JSON.parse(text);
    });
    const page = await engine.search(query);
    const sum = (f: (b: Buffer) => number) => fetched.reduce((total, text) => total + f(Buffer.from(text)), 0);
    out.push({
      query,
      files: fetched.length,
      raw: sum((b) => b.length),
      gzip: sum((b) => gzipSync(b, { level: 9 }).length),
      brotli: sum((b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
      hits: page.hits.length,
    });
  }
  return out;
}
