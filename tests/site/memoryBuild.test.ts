/**
 * A build kept in memory (buildSiteInMemory) gives the same site as a build
 * on disk, file for file and byte for byte, and touches no folder: tests can
 * read whole sites without writing one.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, buildSiteInMemory } from '../../site/build/build.ts';
import { FIXTURE_SITE, tempDir } from './helpers.ts';

const NOW = new Date('2026-11-21T12:00:00Z');

async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('a build in memory', () => {
  it('holds the same files, byte for byte, as the same build on disk', async () => {
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: FIXTURE_SITE, outDir: out, now: NOW, threads: 1, incremental: false });
    const memory = await buildSiteInMemory({ contentDir: FIXTURE_SITE, now: NOW });

    const onDisk = await filesOf(out);
    expect([...memory.files.keys()].sort()).toEqual(onDisk);
    for (const file of onDisk) {
      const bytes = Buffer.from(memory.files.get(file)!);
      expect(bytes.equals(await readFile(path.join(out, file))), file).toBe(true);
    }
    expect(memory.pages).toBe(memory.rendered);
    expect(String(memory.files.get('articles/first-steps/index.html'))).toContain('<h1');
  });

  it('creates no folder for its output', async () => {
    const memory = await buildSiteInMemory({ contentDir: FIXTURE_SITE, now: NOW });
    await expect(readdir(memory.outDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
