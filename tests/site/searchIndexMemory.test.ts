/**
 * Issue 13, item 3: memory that grows with the site. A cold build makes the
 * whole search index on the build thread while the pages render, and at
 * 100,000 articles what it held at once (120 MB, 1.3 KB an article: the
 * word lists twice, raw and gap-coded, and three lists for every word, most
 * of them empty) sat on top of the build's 3.1 KB an article
 * (bench/memory.mjs --search-index). Measured here as the most any full
 * collection leaves alive while the index is made, with every collection a
 * full one; the index's files must stay byte for byte what they were.
 */
import { createHash } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { random } from '../../bench/corpus.mjs';
import { buildSearchFiles, planSearchIndex, type SearchEntry } from '../../site/indexes/searchIndex.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const VOCABULARY = Array.from({ length: 400 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`);

/** Entries as a corpus makes them: a few common words, and in each title a word of its own (its number). */
function entries(count: number): SearchEntry[] {
  const rand = random(13);
  const some = (n: number) => Array.from({ length: n }, () => VOCABULARY[Math.floor(rand() * VOCABULARY.length)]).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    title: `${some(4)} ${i}`,
    slug: `article-${String(i).padStart(6, '0')}`,
    date: new Date(Date.UTC(2020, 0, 1) + (i % 2500) * 86400000).toISOString().slice(0, 10),
    description: some(14),
    topics: i % 3 === 0 ? ['highStakes'] : [],
    category: i % 7,
    subcategory: i % 3,
  }));
}

/** Bytes an article alive at most, beyond the entries, while the index of `count` entries is made. */
function heldWhileMade(count: number): number {
  const list = entries(count);
  const sources = list.map((entry) => ({ slug: entry.slug, key: entry.slug }));
  gc();
  const before = v8.getHeapStatistics().used_heap_size;
  const profiler = new v8.GCProfiler();
  v8.setFlagsFromString('--gc-global');
  profiler.start();
  let plan;
  try {
    plan = planSearchIndex(sources, (i) => list[i]!);
  } finally {
    v8.setFlagsFromString('--no-gc-global');
  }
  const full = profiler.stop()!.statistics.filter((collection) => collection.gcType === 'MarkSweepCompact');
  expect(plan.files.length).toBeGreaterThan(count / 8);
  return (Math.max(...full.map((collection) => collection.afterGC.heapStatistics.usedHeapSize)) - before) / count;
}

describe('the search index of a cold build', () => {
  it('holds little more than its files while it is made', () => {
    const perArticle = heldWhileMade(40_000);
    console.log(`search index: ${perArticle.toFixed(0)} B an article alive at most while made`);
    // 1,080-1,130 B with both copies of the lists and an empty list per unused field; 610-650 B without them; about
    // 140 B since every list is a run of one typed array, made into an array only while its shard's JSON is made.
    expect(perArticle).toBeLessThan(300);
  }, 120_000);

  it('is the same files, whatever it holds', () => {
    const hash = createHash('sha256');
    const files = buildSearchFiles(entries(3000));
    for (const file of files) hash.update(file.path).update('\0').update(file.content).update('\0');
    expect(files.map((file) => file.path)).toContain('search/manifest.json');
    // The digest of the files made before the index held less (5ebfca0's searchIndex.ts).
    expect(`${files.length} ${hash.digest('hex')}`).toBe('504 547a548017b718941e8a4293ef5458ad195349d3bca2c62f724fb918396f172c');
  });

  it('makes the same delta, whatever it holds', () => {
    const list = entries(3000);
    const sources = list.map((entry) => ({ slug: entry.slug, key: entry.slug }));
    const base = planSearchIndex(sources.slice(0, 2900), (i) => list[i]!).state!;
    const delta = planSearchIndex(sources, (i) => list[i]!, base);
    expect(delta.delta).toBe(100);
    const hash = createHash('sha256');
    for (const file of delta.files) hash.update(file.path).update('\0').update(file.content).update('\0');
    expect(`${delta.files.length} ${delta.kept.length} ${hash.digest('hex')}`).toBe('72 448 2205bba5fc53b73f01c6ee42e0962e8630523cf01597b05002afdaf2e6eee708');
  });
});
