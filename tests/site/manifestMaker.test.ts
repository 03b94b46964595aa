import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, ManifestMaker, newManifest, readManifest, serializeManifest, type BuildManifest } from '../../site/build/buildCache.ts';
import { tempDir } from './helpers.ts';
import { manifestDelta } from '../../site/build/commit.ts';

function seeded(seed: number) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function previousManifest(random: () => number): BuildManifest {
  const manifest = newManifest('t');
  for (let i = 0; i < 200; i++) {
    if (random() >= 0.8) continue;
    manifest.pages.set(`/p${i}`, `k${Math.floor(random() * 3)}`);
    if (random() < 0.7) manifest.inputs.set(`/p${i}`, `i${Math.floor(random() * 2)}`);
  }
  for (let i = 0; i < 200; i++) if (random() < 0.8) manifest.others.set(`f${i}`, `h${Math.floor(random() * 3)}`);
  return manifest;
}

describe('the delta a rebuild notes as it makes its manifest', () => {
  it('is what comparing the two manifests entry by entry finds: added, changed and gone, files set twice included', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seeded(seed);
      const previous = previousManifest(random);
      // The maker takes over the previous manifest's page maps: compare with a copy made before.
      const before = structuredClone(previous);
      const maker = new ManifestMaker('t', previous);
      // What this build's manifest must hold, made entry by entry in new maps.
      const pages = new Map<string, string>();
      const inputs = new Map<string, string>();
      for (let i = 0; i < 200; i++) {
        if (random() >= 0.8) continue;
        const page = `/p${i}`;
        const input = random() < 0.7 ? `i${Math.floor(random() * 2)}` : undefined;
        // A page whose inputs are the previous build's keeps its key, as build.ts does.
        const kept = input !== undefined && maker.keptPage(page, input);
        if (kept) expect(before.inputs.get(page)).toBe(input);
        const key = kept ? before.pages.get(page)! : `k${Math.floor(random() * 3)}`;
        if (!kept) maker.setPage(page, key, input);
        pages.set(page, key);
        if (input !== undefined) inputs.set(page, input);
      }
      for (let i = 0; i < 200; i++) {
        if (random() < 0.8) maker.setOther(`f${i}`, `h${Math.floor(random() * 3)}`);
        // Some files are set again, to their first value or another.
        if (random() < 0.1) maker.setOther(`f${i}`, `h${Math.floor(random() * 3)}`);
      }
      const noted = maker.delta();
      const compared = manifestDelta(before, maker.manifest);
      expect([...noted.pages].sort()).toEqual([...compared.pages].sort());
      expect([...noted.others].sort()).toEqual([...compared.others].sort());
      expect(new Map([...maker.manifest.pages].sort())).toEqual(new Map([...pages].sort()));
      expect(new Map([...maker.manifest.inputs].sort())).toEqual(new Map([...inputs].sort()));
    }
  });

  it('names every page of a site that lost them all, and nothing when nothing changed', () => {
    const previous = () => {
      const manifest = newManifest('t');
      manifest.pages = new Map([
        ['/a', 'x'],
        ['/b', 'y'],
      ]);
      manifest.others = new Map([['sw.js', 'z']]);
      return manifest;
    };
    const emptied = new ManifestMaker('t', previous());
    expect(emptied.delta()).toEqual({ pages: ['/a', '/b'], others: ['sw.js'] });
    expect(emptied.manifest.pages.size).toBe(0);
    const same = new ManifestMaker('t', previous());
    same.setPage('/b', 'y');
    same.setPage('/a', 'x');
    same.setOther('sw.js', 'z');
    expect(same.delta()).toEqual({ pages: [], others: [] });
  });
});

describe('the manifest on disk', () => {
  it('reads back what was written: pages with and without inputs, other files, the delta', async () => {
    const release = await tempDir();
    mkdirSync(path.join(release, '.felt'));
    const manifest = newManifest('template');
    manifest.pages = new Map([
      ['/', 'k0'],
      ['/articles/a', 'k1'],
      ['/404', 'k2'],
    ]);
    manifest.inputs = new Map([['/articles/a', 'i1']]);
    manifest.others = new Map([
      ['sw.js', 'h0'],
      ['static/odd name.txt', 'h1'],
    ]);
    manifest.articles = new Map([
      ['en_US', { count: 1, slugs: 'a\0', tokens: '0123456789abcdef\0' }],
      ['ru_RU', { count: 0, slugs: '', tokens: '' }],
      ['tr_TR', { count: 2, slugs: 'b\0c\0', tokens: 'fedcba9876543210\0' + '00000000ffffffff+picture\0' }],
    ]);
    manifest.planKey = 'plan';
    manifest.delta = { from: 'r1', pages: ['/articles/a'], others: [] };
    writeFileSync(path.join(release, MANIFEST_FILE), serializeManifest(manifest));
    expect(readManifest(release)).toEqual(manifest);

    const empty = newManifest('template');
    writeFileSync(path.join(release, MANIFEST_FILE), serializeManifest(empty));
    expect(readManifest(release)).toEqual({ ...empty, delta: undefined });

    // Cut short (a full disk): no manifest, and the build starts over.
    writeFileSync(path.join(release, MANIFEST_FILE), serializeManifest(manifest).slice(0, -8));
    expect(readManifest(release)).toBeUndefined();
  });
});

describe('a manifest of a large site', () => {
  it('is written and read back at 200,000 pages', async () => {
    const manifest = newManifest('template');
    for (let i = 0; i < 200_000; i++) {
      manifest.pages.set(`/articles/a${i}`, `k${i}`);
      manifest.others.set(`images/covers/a${i}.svg`, 'v');
    }
    const release = await tempDir();
    mkdirSync(path.join(release, '.felt'));
    writeFileSync(path.join(release, MANIFEST_FILE), serializeManifest(manifest));
    const read = readManifest(release)!;
    expect([read.pages.size, read.others.size]).toEqual([200_000, 200_000]);
    expect(read.pages.get('/articles/a199999')).toBe('k199999');
  });
});

describe("a cold build's manifest", () => {
  // A cold maker keeps its pages as the file's runs of text (PageColumns), not in maps: what it writes must read back
  // as the maps a map-keeping manifest of the same pages writes, across blocks of rows and with no pages at all.
  const coldAndMapped = (pageCount: number) => {
    const cold = new ManifestMaker('template');
    const mapped = newManifest('template');
    for (let i = 0; i < pageCount; i++) {
      const page = i === 0 ? '/' : `/articles/a${i}`;
      const input = i % 3 === 0 ? undefined : `i${i}`;
      cold.setPage(page, `k${i}`, input);
      mapped.pages.set(page, `k${i}`);
      if (input !== undefined) mapped.inputs.set(page, input);
    }
    for (const [file, version] of [
      ['sw.js', 'h0'],
      ['static/odd name.txt', 'h1'],
    ]) {
      cold.setOther(file!, version!);
      mapped.others.set(file!, version!);
    }
    cold.manifest.planKey = mapped.planKey = 'plan';
    return { cold, mapped };
  };

  it.each([0, 1, 4095, 4096, 4097, 10_000])('reads back as the same pages, inputs and files at %i pages', async (pageCount) => {
    const { cold, mapped } = coldAndMapped(pageCount);
    const release = await tempDir();
    mkdirSync(path.join(release, '.felt'));
    const text = cold.serialize();
    expect(text).toBe(serializeManifest(mapped));
    writeFileSync(path.join(release, MANIFEST_FILE), text);
    const read = readManifest(release)!;
    expect(read.pages).toEqual(mapped.pages);
    expect(read.inputs).toEqual(mapped.inputs);
    expect(read.others).toEqual(mapped.others);
    // The maker's own maps stay empty: a cold build never looks a page up.
    expect(cold.manifest.pages.size).toBe(0);
  });

  it('with no other files', () => {
    const cold = new ManifestMaker('template');
    const mapped = newManifest('template');
    cold.setPage('/a', 'k', 'i');
    mapped.pages.set('/a', 'k');
    mapped.inputs.set('/a', 'i');
    expect(cold.serialize()).toBe(serializeManifest(mapped));
  });
});
