/**
 * Issue 13: a release made without a spare, or from a spare of other templates, links every file of the site from
 * the served release, and a long list is shared with a thread beside the build's (site/build/releaseLinks.ts). Here
 * with the compiled link thread (lib/link-worker.js, made by the tests' setup) and a least number of files of one,
 * so that a small tree takes the path a 100,000-article site takes.
 */
import { lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { linkFiles, type LinkInto } from '../../site/build/releaseLinks.ts';
import { FeltError } from '../../shared/errors.ts';
import { tempDir } from './helpers.ts';

const LINK_THREAD = fileURLToPath(new URL('../../lib/link-worker.js', import.meta.url));
const THREADED = { script: LINK_THREAD, min: 1 };

/** A served release of `count` pages (two files each, in folders of their own) and the list of its files. */
async function servedRelease(root: string, count: number): Promise<{ served: string; files: string[] }> {
  const served = path.join(root, 'served');
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    for (const file of [`articles/a-${i}/index.html`, `page-data/articles/a-${i}/page-data.json`]) {
      await mkdir(path.dirname(path.join(served, file)), { recursive: true });
      await writeFile(path.join(served, file), `${file} served`);
      files.push(file);
    }
  }
  return { served, files };
}

async function sameInode(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstat(a), lstat(b)]);
  return x.ino === y.ino && x.dev === y.dev;
}

describe('linking a release from the served one on two threads', () => {
  it.each<[LinkInto, string]>([
    ['empty', 'into a new release, making its folders'],
    ['replacing', 'over a spare of other templates, replacing its stale files'],
    ['older', 'into an older release, replacing what differs and making the folders it lacks'],
  ])('%s: %s', async (into) => {
    const root = await tempDir();
    const { served, files } = await servedRelease(root, 60);
    const release = path.join(root, 'release');
    await mkdir(release);
    if (into !== 'empty') {
      // The older release has the first forty pages, stale; the last twenty are new to it.
      for (const file of files.slice(0, 80)) {
        await mkdir(path.dirname(path.join(release, file)), { recursive: true });
        await writeFile(path.join(release, file), 'stale');
      }
    }
    await linkFiles({ release, currentRelease: served, into, files: [...files], outDir: root }, THREADED);
    for (const file of files) expect(await sameInode(path.join(release, file), path.join(served, file)), file).toBe(true);
    // The served release's files keep their bytes: the stale ones were unlinked, never written into.
    await expect(readFile(path.join(served, files[0]!), 'utf8')).resolves.toBe(`${files[0]} served`);
  });

  it("says which served file was removed during the build when the link thread's half meets it, as a FeltError", async () => {
    const root = await tempDir();
    const { served, files } = await servedRelease(root, 40);
    const release = path.join(root, 'release');
    await mkdir(release);
    // The sorted list's second half (page-data/…) is the thread's.
    const gone = [...files].sort().at(-1)!;
    await rm(path.join(served, gone));
    const failure = linkFiles({ release, currentRelease: served, into: 'empty', files: [...files], outDir: root }, THREADED);
    await expect(failure).rejects.toBeInstanceOf(FeltError);
    await expect(failure).rejects.toMatchObject({ code: 'BAD_PATH', message: expect.stringContaining('removed during the build') });
  });

  it("stops the link thread and says this thread's failure when its own half meets a removed file", async () => {
    const root = await tempDir();
    const { served, files } = await servedRelease(root, 40);
    const release = path.join(root, 'release');
    await mkdir(release);
    const gone = [...files].sort()[0]!;
    await rm(path.join(served, gone));
    await expect(linkFiles({ release, currentRelease: served, into: 'empty', files: [...files], outDir: root }, THREADED)).rejects.toMatchObject({
      code: 'BAD_PATH',
    });
  });
});
