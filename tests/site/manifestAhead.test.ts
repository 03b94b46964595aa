/**
 * The served release's manifest read ahead (build/manifestAhead.ts): a build uses it only when it is the manifest
 * of the release its layout names as current, whatever path led there.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANIFEST_FILE, newManifest, serializeManifest } from '../../site/build/buildCache.ts';
import { readManifestAhead, servedManifest } from '../../site/build/manifestAhead.ts';
import { tempDir } from './helpers.ts';

function release(root: string, name: string, templateKey: string): string {
  const folder = path.join(root, 'dist.releases', name);
  mkdirSync(path.join(folder, '.felt'), { recursive: true });
  writeFileSync(path.join(folder, MANIFEST_FILE), serializeManifest(newManifest(templateKey)));
  return folder;
}

describe('the manifest read ahead', () => {
  it('is the served one only for the release it was read from', async () => {
    const root = await tempDir();
    const first = release(root, 'r1', 'first');
    const second = release(root, 'r2', 'second');
    const outDir = path.join(root, 'dist');
    symlinkSync(path.relative(root, first), outDir, 'dir');

    const ahead = readManifestAhead(outDir)!;
    expect(ahead.manifest?.templateKey).toBe('first');
    // The layout names the release by its path in dist.releases/: the same release, so the same object.
    expect(servedManifest(first, ahead)).toBe(ahead.manifest);
    // The link moved on before the layout was made (another release is current): that one is read.
    expect(servedManifest(second, ahead)?.templateKey).toBe('second');
    expect(servedManifest(second, undefined)?.templateKey).toBe('second');
    // Nothing built yet: nothing read ahead.
    expect(readManifestAhead(path.join(root, 'none'))).toBeUndefined();
  });
});
