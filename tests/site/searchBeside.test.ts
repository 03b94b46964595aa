/**
 * Issue 13: the search index is made by the build's thread while the render
 * workers render the pages queued for it (site/build/build.ts, the render
 * pool's `beside`), and the sitemaps, feeds and other files while they render
 * the last ones, not after the last page with every worker stopped. Seen
 * from outside: a build killed the moment its last page is written
 * (FELT_CRASH_AT=pages-written, site/build/crashPoints.ts) has its search
 * index and sitemap in its staging folder already, and only the build's
 * manifest is missing. The compiled CLI (`npm run compile` first).
 */
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { SEARCH_MANIFEST } from '../../site/indexes/searchIndex.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);
const FELT = new URL('../../bin/felt.js', import.meta.url).pathname;

describe('the search index beside the pages', () => {
  it('is in the release before the pages are all written, on two threads and on one', async () => {
    const root = await tempDir();
    const content = path.join(root, 'content');
    await writeCorpus(content, 400);
    for (const threads of ['2', '1']) {
      const out = path.join(root, `dist-${threads}`);
      const killed = await run(process.execPath, [FELT, 'build', '--content', content, '--out', out, '--threads', threads, '--no-incremental'], {
        cwd: root,
        env: { ...process.env, FELT_CRASH_AT: 'pages-written' },
      }).then(
        () => false,
        (error: { signal?: string }) => error.signal === 'SIGKILL',
      );
      expect(killed).toBe(true);
      const releases = `${out}.releases`;
      const staging = (await readdir(releases)).filter((name) => name.startsWith('.staging-'));
      expect(staging).toHaveLength(1);
      const folder = path.join(releases, staging[0]!);
      const manifest = JSON.parse(await readFile(path.join(folder, SEARCH_MANIFEST), 'utf8')) as object;
      expect(Object.keys(manifest).length).toBeGreaterThan(0);
      await expect(readFile(path.join(folder, 'sitemap.xml'), 'utf8')).resolves.toMatch(/<loc>[^<]*article-000399/);
      await expect(readFile(path.join(folder, '.felt', 'manifest.json'))).rejects.toThrow(/ENOENT/);
      await expect(readFile(path.join(folder, 'articles', 'article-000399', 'index.html'), 'utf8')).resolves.toMatch(/^<!doctype html>/);
    }
  });
});
