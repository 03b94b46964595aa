/**
 * Issue 13: a build that renders on its own thread hands its files to a
 * writer thread (site/build/threadSink.ts, writeWorker.ts), which writes them
 * while the next pages render. Every file arrives whole, however far the
 * renderer runs ahead; a write that fails stops the build with the writer's
 * own error (the path, the system's reason), never a hang. Runs the compiled
 * writer (`npm run compile` first), as a build does.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.ts';
import { ThreadSink } from '../../site/build/threadSink.ts';
import { writerScript } from '../../site/build/renderWorkers.ts';

const script = writerScript() ?? path.resolve('lib/write-worker.js');

describe('the writer thread', () => {
  it('writes every file whole, in its folder, however many the renderer queues ahead', async () => {
    const dir = await tempDir();
    const sink = new ThreadSink(script, { dir });
    const page = (i: number) => `<p>page ${i} ${'é🂡'.repeat(i % 50)}</p>`;
    for (let i = 0; i < 1000; i++) {
      sink.write(`articles/a-${i}/index.html`, page(i));
      sink.write(`page-data/articles/a-${i}/page-data.json`, JSON.stringify({ i }));
    }
    sink.write('images/logo.png', Uint8Array.from([137, 80, 78, 71]));
    await sink.close();
    for (const i of [0, 1, 31, 32, 499, 999]) {
      expect(await readFile(path.join(dir, `articles/a-${i}/index.html`), 'utf8')).toBe(page(i));
      expect(JSON.parse(await readFile(path.join(dir, `page-data/articles/a-${i}/page-data.json`), 'utf8'))).toEqual({ i });
    }
    expect([...(await readFile(path.join(dir, 'images/logo.png')))]).toEqual([137, 80, 78, 71]);
  });

  it('stops the build with the failed write: its path and reason, from write() or close()', async () => {
    const dir = await tempDir();
    // A file where a folder must go: the writer's mkdir fails (ENOTDIR/EEXIST) on the first page under it.
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'articles'), 'not a folder');
    const sink = new ThreadSink(script, { dir });
    const failure = await (async () => {
      try {
        for (let i = 0; i < 2000; i++) sink.write(`articles/a-${i}/index.html`, `page ${i}`);
        await sink.close();
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toContain(path.join(dir, 'articles'));
  });

  it('refuses a path outside its folder, as the build thread would', async () => {
    const dir = path.join(await tempDir(), 'out');
    const sink = new ThreadSink(script, { dir });
    sink.write('../escaped.html', 'x');
    await expect(sink.close()).rejects.toThrow(/outside the output folder/);
  });
});
