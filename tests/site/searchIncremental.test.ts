/**
 * Issue 13: the search index is rebuilt incrementally. A rebuild adds a
 * delta (the articles added or changed since the base) and tombstones (the
 * base's changed and removed articles) and keeps the base's word shards as
 * they are: not made, not written, not uploaded again. A query finds what it
 * finds in a cold build's index of the same content.
 */
import { readFile, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { buildSite } from '../../site/build/build.ts';
import { compactAt, planSearchIndex, type SearchEntry } from '../../site/indexes/searchIndex.ts';
import type { SearchManifest } from '../../site/islands/search/text.ts';
import { distSearch, searchDifferences, titleQueries } from '../support/searchDist.ts';
import { tempDir } from './helpers.ts';

const NOW = new Date('2026-11-21T12:00:00Z');

async function manifestOf(dist: string): Promise<SearchManifest> {
  return JSON.parse(await readFile(path.join(dist, 'search/manifest.json'), 'utf8')) as SearchManifest;
}

/** The search files this build wrote: a file linked from the release before has a second link. */
async function searchFilesWritten(dist: string): Promise<string[]> {
  const written: string[] = [];
  for (const entry of await readdir(path.join(dist, 'search'), { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && (await stat(full)).nlink === 1) written.push(path.relative(dist, full));
  }
  return written;
}

function ungap(list: number[] = []): number[] {
  let value = 0;
  return list.map((gap, i) => (value = i === 0 ? gap : value + gap));
}

describe('the search index of an incremental build', () => {
  it('after 20 new articles, one changed and one removed: writes a delta and keeps the base shards, and finds what a cold build finds', async () => {
    const root = await tempDir();
    const content = path.join(root, 'content');
    await writeCorpus(content, 300);
    const article = (slug: string) => path.join(content, 'articles/en_US', `${slug}.md`);
    const retitle = async (slug: string, title: string) =>
      writeFile(article(slug), (await readFile(article(slug), 'utf8')).replace(/^title: .*$/m, `title: "${title}"`));
    await retitle('article-000005', 'Zephyrine Staking Diaries'); // removed tonight
    await retitle('article-000007', 'Marmalade Bankroll Notes'); // retitled tonight
    const out = path.join(root, 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const base = await manifestOf(out);
    expect(base.d).toBeUndefined();
    const shardFiles = Array.from({ length: base.b }, (_, i) => path.join(out, `search/${base.id}/w/${i}.json`));
    const shardsBefore = await Promise.all(shardFiles.map((file) => stat(file)));

    // The night: 20 new articles (dated after all others), one retitled, one removed.
    await writeCorpus(content, 20, { offset: 300, fresh: true });
    await retitle('article-000310', 'Quixotic Parlay Ledger');
    await retitle('article-000007', 'Tangerine Bankroll Notes');
    await unlink(article('article-000005'));
    await buildSite({ contentDir: content, outDir: out, now: NOW });

    const night = await manifestOf(out);
    expect(night).toMatchObject({ id: base.id, b: base.b, n: 300 + 21 });
    expect(night.d).toBeDefined();
    // Corpus article i is the i-th oldest: its base ordinal is i.
    expect(ungap(night.t)).toEqual([5, 7]);
    // Not one base shard made again: the same file (inode), never rewritten (mtime).
    const shardsAfter = await Promise.all(shardFiles.map((file) => stat(file)));
    shardsAfter.forEach((after, i) => {
      expect(after.ino, shardFiles[i]).toBe(shardsBefore[i]!.ino);
      expect(after.mtimeMs, shardFiles[i]).toBe(shardsBefore[i]!.mtimeMs);
    });
    const written = await searchFilesWritten(out);
    expect(written.filter((file) => file.startsWith(`search/${base.id}/`))).toEqual([]);
    // The manifest, the delta's shards and the last record segment (300 + 21 records, one segment of 64 chunks).
    expect(written).toContain('search/manifest.json');
    expect(written.length).toBeLessThanOrEqual(1 + night.d!.b + 64);

    const cold = path.join(root, 'cold');
    await buildSite({ contentDir: content, outDir: cold, now: NOW, incremental: false });
    expect((await manifestOf(cold)).d).toBeUndefined();
    const [incremental, reference] = [distSearch(out), distSearch(cold)];
    const slugs = async (query: string) => (await incremental(query)).map((hit) => hit.split('|')[0]);
    for (const query of ['quixotic', 'zephyrine', 'marmalade', 'tangerine', 'tangerine bankroll', 'quixotc']) {
      expect((await incremental(query)).sort(), query).toEqual((await reference(query)).sort());
    }
    expect(await slugs('quixotic')).toEqual(['article-000310']);
    expect(await slugs('quixotc')).toEqual(['article-000310']); // a typo finds a delta word
    expect(await slugs('zephyrine')).toEqual([]);
    expect(await slugs('marmalade')).toEqual([]);
    expect(await slugs('tangerine')).toEqual(['article-000007']);
    expect(await searchDifferences(out, cold, await titleQueries(out, cold))).toEqual([]);

    // A second night builds on the same base: the delta grows, the base shards stay.
    await writeCorpus(content, 20, { offset: 320, fresh: true });
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const second = await manifestOf(out);
    expect(second).toMatchObject({ id: base.id, n: 300 + 41 });
    expect((await searchFilesWritten(out)).filter((file) => file.startsWith(`search/${base.id}/`))).toEqual([]);
    expect((await stat(shardFiles[0]!)).ino).toBe(shardsBefore[0]!.ino);
    const cold2 = path.join(root, 'cold2');
    await buildSite({ contentDir: content, outDir: cold2, now: NOW, incremental: false });
    expect(await searchDifferences(out, cold2, await titleQueries(out, cold2))).toEqual([]);

    // A build told not to reuse anything makes a new base, with no delta.
    await buildSite({ contentDir: content, outDir: out, now: NOW, incremental: false });
    const fresh = await manifestOf(out);
    expect(fresh.d).toBeUndefined();
    expect(fresh.t).toBeUndefined();
    expect(fresh.id).not.toBe(base.id);
  }, 120_000);

  it('makes a new base once the delta and tombstones pass compactAt()', () => {
    const entries: SearchEntry[] = Array.from({ length: 600 }, (_, i) => ({
      title: `Title ${i} word${i % 17}`,
      slug: `a-${String(i).padStart(4, '0')}`,
      date: `2025-01-${String((i % 28) + 1).padStart(2, '0')}`,
      description: `About ${i}.`,
      topics: [],
      category: 0,
      subcategory: 0,
    }));
    const sources = (list: SearchEntry[]) => list.map((entry) => ({ slug: entry.slug, key: `${entry.slug}:${entry.title}` }));
    const base = planSearchIndex(sources(entries.slice(0, 300)), (i) => entries[i]!);
    expect(base.state).toBeDefined();
    const limit = compactAt(600);
    expect(limit).toBe(256);
    // 300 + 256 articles: a delta of exactly the limit.
    const upTo = entries.slice(0, 300 + limit);
    const delta = planSearchIndex(sources(upTo), (i) => upTo[i]!, base.state);
    expect(delta).toMatchObject({ delta: limit, tombstones: 0 });
    expect(delta.state).toBeUndefined();
    expect(delta.kept.filter((file) => file.includes('/w/'))).toHaveLength(base.state!.b);
    // One more (here, one base article changed: a tombstone and a delta entry): a new base.
    const changed = upTo.map((entry, i) => (i === 3 ? { ...entry, title: 'Changed' } : entry));
    const over = planSearchIndex(sources(changed), (i) => changed[i]!, base.state);
    expect(over.state).toBeDefined();
    expect(over.kept).toEqual([]);
  });
});
