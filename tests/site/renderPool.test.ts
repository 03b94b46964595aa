/**
 * Issue 13: the build's thread renders pages beside its workers whenever they
 * all have work queued, so two threads are one worker and the build's own
 * thread, not two workers (each loads React and markdown-it: 0.2–0.3 s of
 * CPU), and a full build starts its workers before it loads anything
 * (site/build/renderPool.ts, renderWorkers.ts). Whoever renders a page, it
 * is the same bytes: a site big enough to keep a worker busy, built by the
 * compiled CLI (`npm run compile` first) on two threads and on one, is the
 * same site.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { tempDir } from './helpers.ts';
import { SOLO_ARTICLES, hasFewerArticles } from '../../site/build/renderWorkers.ts';

const run = promisify(execFile);
const FELT = new URL('../../bin/felt.js', import.meta.url).pathname;

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (!relative.startsWith('.felt')) files.set(relative, await readFile(full));
  }
  return files;
}

describe('rendering on workers and on the build thread', () => {
  it('writes the same site on two threads as on one', async () => {
    const root = await tempDir();
    const content = path.join(root, 'content');
    await writeCorpus(content, 400);
    const build = async (out: string, threads: string, node: string[] = []) => {
      const { stdout } = await run(
        process.execPath,
        [...node, FELT, 'build', '--content', content, '--out', out, '--threads', threads, '--no-incremental', '--json'],
        {
          cwd: root,
          env: { ...process.env, SOURCE_DATE_EPOCH: '1795000000' },
        },
      );
      return JSON.parse(stdout) as { threads: number; rendered: number; pages: number };
    };
    // Node writes a CPU profile for each thread it runs: on two threads, one render worker starts, not two. (The
    // third thread of a cold build draws its share cards, site/pictures/earlyCards.ts.)
    const profiles = path.join(root, 'profiles');
    const two = await build(path.join(root, 'two'), '2', ['--cpu-prof', '--cpu-prof-dir', profiles]);
    const texts = await Promise.all((await readdir(profiles)).map((name) => readFile(path.join(profiles, name), 'utf8')));
    expect(texts.filter((text) => text.includes('render-worker.js'))).toHaveLength(1);
    expect(texts).toHaveLength(3);
    const one = await build(path.join(root, 'one'), '1');
    expect(two).toMatchObject({ threads: 2, rendered: one.pages });
    expect(one.threads).toBe(1);
    const [a, b] = await Promise.all([snapshot(path.join(root, 'one')), snapshot(path.join(root, 'two'))]);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [name, bytes] of a) expect(b.get(name)!.equals(bytes), name).toBe(true);
  });

  // A cold build of a small site renders on its own thread: a render worker costs it more CPU than it saves
  // (renderWorkers.ts, SOLO_ARTICLES). Asked for by --threads, workers still start (the test above).
  it('builds a small site on one thread when --threads is not given', async () => {
    const root = await tempDir();
    const content = path.join(root, 'content');
    await writeCorpus(content, 60);
    const profiles = path.join(root, 'profiles');
    const { stdout } = await run(
      process.execPath,
      ['--cpu-prof', '--cpu-prof-dir', profiles, FELT, 'build', '--content', content, '--out', path.join(root, 'out'), '--no-incremental', '--json'],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toMatchObject({ threads: 1, rendered: expect.any(Number) });
    // The build's thread, the share cards' thread and the thread that writes the pages' files (threadSink.ts): no
    // render worker was started ahead and left unused.
    const texts = await Promise.all((await readdir(profiles)).map((name) => readFile(path.join(profiles, name), 'utf8')));
    expect(texts.filter((text) => text.includes('render-worker.js'))).toHaveLength(0);
    expect(texts.filter((text) => text.includes('write-worker.js'))).toHaveLength(1);
    expect(texts).toHaveLength(3);
  });

  it('counts article files across locales up to a limit, without dot files or other extensions', async () => {
    const content = path.join(await tempDir(), 'content');
    expect(hasFewerArticles(content, 1)).toBe(false);
    for (const locale of ['en_US', 'ru_RU']) await mkdir(path.join(content, 'articles', locale), { recursive: true });
    for (const name of ['a.md', 'b.md', '._a.md', 'notes.txt']) await writeFile(path.join(content, 'articles', 'en_US', name), '');
    await writeFile(path.join(content, 'articles', 'ru_RU', 'c.md'), '');
    expect(hasFewerArticles(content, 4)).toBe(true);
    expect(hasFewerArticles(content, 3)).toBe(false);
    expect(SOLO_ARTICLES).toBeGreaterThan(1000);
  });
});
