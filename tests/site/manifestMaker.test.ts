import { describe, expect, it } from 'vitest';
import { ManifestMaker, newManifest, type BuildManifest } from '../../site/build/buildCache.ts';
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
