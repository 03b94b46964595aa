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
  for (let i = 0; i < 200; i++) if (random() < 0.8) manifest.pages.set(`/p${i}`, `k${Math.floor(random() * 3)}`);
  for (let i = 0; i < 200; i++) if (random() < 0.8) manifest.others.set(`f${i}`, `h${Math.floor(random() * 3)}`);
  return manifest;
}

describe('the delta a rebuild notes as it makes its manifest', () => {
  it('is what comparing the two manifests entry by entry finds: added, changed and gone, files set twice included', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seeded(seed);
      const previous = previousManifest(random);
      const maker = new ManifestMaker('t', previous);
      for (let i = 0; i < 200; i++) if (random() < 0.8) maker.setPage(`/p${i}`, `k${Math.floor(random() * 3)}`);
      for (let i = 0; i < 200; i++) {
        if (random() < 0.8) maker.setOther(`f${i}`, `h${Math.floor(random() * 3)}`);
        // Some files are set again, to their first value or another.
        if (random() < 0.1) maker.setOther(`f${i}`, `h${Math.floor(random() * 3)}`);
      }
      const noted = maker.delta();
      const compared = manifestDelta(previous, maker.manifest);
      expect([...noted.pages].sort()).toEqual([...compared.pages].sort());
      expect([...noted.others].sort()).toEqual([...compared.others].sort());
    }
  });

  it('names every page of a site that lost them all, and nothing when nothing changed', () => {
    const previous = newManifest('t');
    previous.pages = new Map([
      ['/a', 'x'],
      ['/b', 'y'],
    ]);
    previous.others = new Map([['sw.js', 'z']]);
    expect(new ManifestMaker('t', previous).delta()).toEqual({ pages: ['/a', '/b'], others: ['sw.js'] });
    const same = new ManifestMaker('t', previous);
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
