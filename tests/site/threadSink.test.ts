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
import { ownCover } from '../../site/pictures/drawnCovers.ts';
import { svgCoverFile } from '../../site/pictures/svgCover.ts';

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

  it('draws the SVG covers it is handed: the files the rendering thread would have written', async () => {
    const dir = await tempDir();
    const sink = new ThreadSink(script, { dir });
    // One cover a page, as a small site's build hands them over, across several batches; then the rest at once.
    const covers = Array.from({ length: 200 }, (_, i) => ownCover(`a-${i}`));
    for (const [i, cover] of covers.slice(0, 70).entries()) {
      sink.write(`articles/a-${i}/index.html`, `page ${i}`);
      sink.drawCovers([cover]);
    }
    sink.drawCovers(covers.slice(70));
    await sink.close();
    for (const cover of covers) {
      const drawnHere = svgCoverFile(cover);
      expect(await readFile(path.join(dir, drawnHere.path), 'utf8')).toBe(drawnHere.content);
    }
    expect(await readFile(path.join(dir, 'articles/a-69/index.html'), 'utf8')).toBe('page 69');
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

  // A writer that dies (out of memory, a crash in Node) must stop the build with a message, not leave it waiting for
  // an answer that never comes. These writers are scripts of the test's own, given to the sink as the build gives it
  // the compiled one.
  it('stops the build when the writer thread dies before its first batch', async () => {
    const dir = await tempDir();
    const sink = new ThreadSink(await writerScriptThat(dir, 'process.exit(3);'), { dir: path.join(dir, 'out') });
    // Fewer files than a batch: nothing is handed over before close().
    for (let i = 0; i < 5; i++) sink.write(`articles/a-${i}/index.html`, `page ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(within(5000, sink.close())).rejects.toThrow(/writer thread stopped/);
  });

  it('stops the build when the writer thread throws while it writes', async () => {
    const dir = await tempDir();
    const crash = `(await import('node:worker_threads')).parentPort.once('message', () => { throw new Error('the disk driver fell over'); });`;
    const sink = new ThreadSink(await writerScriptThat(dir, crash), { dir: path.join(dir, 'out') });
    // One batch handed over (32 files), the crash heard, then the rest.
    for (let i = 0; i < 32; i++) sink.write(`articles/a-${i}/index.html`, `page ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const failure = await within(
      5000,
      (async () => {
        for (let i = 32; i < 40; i++) sink.write(`articles/a-${i}/index.html`, `page ${i}`);
        await sink.close();
      })(),
    ).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/the disk driver fell over|writer thread stopped/);
  });
});

async function writerScriptThat(dir: string, body: string): Promise<string> {
  const file = path.join(dir, 'writer.mjs');
  await writeFile(file, `${body}\n`);
  return file;
}

/** The promise, or a failure saying it did not settle in time (a hung close() would otherwise hang the test run). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
