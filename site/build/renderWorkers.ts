/**
 * The render workers' threads, apart from the pool that feeds them
 * (renderPool.ts) so that they can start before the build has loaded
 * anything: a worker spends its first 0.2–0.3 s of CPU loading React,
 * markdown-it and the components, and `felt build` starts its workers
 * (startRenderWorkers) before it even loads the build's own modules, so that
 * this happens on the other cores while the main thread loads the content.
 * A worker waits for its RenderSetup (a message, renderWorker.ts), which only
 * the build can make. This module imports nothing but Node's and felt's
 * paths (shared/paths.ts).
 */
import { opendirSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { besideModule } from '../../shared/paths.ts';

export function defaultThreads(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
}

/**
 * Below this many article files, a build that renders every page renders them on its own thread, unless --threads
 * says otherwise. A render worker costs a small site more CPU than it saves: it loads React, markdown-it and the
 * pages' code (0.15 s), V8 compiles the same hot functions again for its heap (its optimising compiler's threads used
 * 0.75 s of CPU in a cold 1,000-article build on two threads against 0.58 s on one), and it renders its first pages
 * unoptimised. Meanwhile the other core is not idle: the share cards (earlyCards.ts) and that compiler run there.
 * Cold 1,000-article builds, four interleaved pairs at load 6.6: 2.46-2.75 s of CPU (user + system) against
 * 2.92-3.17 s with a worker, wall 1.59-1.85 s against 1.69-2.04 s, peak memory 219-231 MB against 273-281 MB. At
 * 1,500 and 2,000 (load 5-6) a worker was the faster by 0.2-0.4 s of wall: the build's thread alone then holds more
 * than half of both threads' work.
 */
export const SOLO_ARTICLES = 1250;

/** The threads a build that renders every page uses when --threads does not say: one for a small site, else one per core. */
export function everyPageThreads(contentDir: string): number {
  return hasFewerArticles(contentDir, SOLO_ARTICLES) ? 1 : defaultThreads();
}

/**
 * Whether the content folder holds fewer than `limit` article files (`articles/<locale>/*.md`, every locale), counted
 * without listing a large folder whole. A folder that cannot be read counts as large: the build then starts its
 * workers as before, and loading the content says what is wrong.
 */
export function hasFewerArticles(contentDir: string, limit: number): boolean {
  let count = 0;
  try {
    const articles = path.join(contentDir, 'articles');
    for (const locale of readdirSync(articles, { withFileTypes: true })) {
      if (!locale.isDirectory() && !locale.isSymbolicLink()) continue;
      const folder = opendirSync(path.join(articles, locale.name));
      try {
        for (let entry = folder.readSync(); entry; entry = folder.readSync()) {
          if (entry.name.endsWith('.md') && !entry.name.startsWith('.') && ++count >= limit) return false;
        }
      } finally {
        folder.closeSync();
      }
    }
  } catch {
    return false;
  }
  return true;
}

/** Workers for `threads` rendering threads: the calling thread renders too (renderPool.ts). */
export function workerCount(threads: number): number {
  return Math.max(0, threads - 1);
}

/**
 * The compiled worker (lib/render-worker.js, scripts/compile.mjs), or none
 * when running the TypeScript sources (tests): pages are then rendered on the
 * calling thread. esbuild puts this module in lib/felt.js or in one of the
 * chunks in lib/chunks/, as the import graph falls: both are looked at.
 */
export function workerScript(): string | undefined {
  return besideModule(import.meta.url, 'render-worker.js');
}

/** The compiled writer thread (lib/write-worker.js, threadSink.ts), found as workerScript() is. */
export function writerScript(): string | undefined {
  return besideModule(import.meta.url, 'write-worker.js');
}

/**
 * A render worker's heap limits. Its live heap stays small (10-30 MB at 100,000 articles: the renderer, a batch),
 * but under the process's default limit (4 GB on a 24 GB machine) V8 lets a heap grow up to four times its live
 * size between full collections, and a worker that allocates fast did: 133 MB at the end of a cold 100,000-article
 * build, 74 MB with this limit and limitHeapGrowth. A page that needs more than 512 MB is no page felt makes (a
 * 2 MB article renders in a few MB).
 */
export const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512 };

/** A render worker thread, under WORKER_RESOURCE_LIMITS. */
export function newRenderWorker(script: string): Worker {
  return new Worker(script, { resourceLimits: WORKER_RESOURCE_LIMITS });
}

/**
 * How far V8 lets a heap grow past what its last full collection left alive before it collects again, in percent.
 * Left to itself V8 picks 1.1-4 times from how fast the program allocates, and while the pages render the build's
 * thread allocates fast: at 100,000 articles its heap reached 680-710 MB for 350 MB alive, the larger part of the
 * build's peak. At 1.4 times it reached 570 MB (320 MB alive), for a few more full collections and no more user
 * CPU that we could measure (cold 30,000: 18.2-18.5 s before, 18.2-18.9 s after).
 */
export const HEAP_GROWING_PERCENT = 40;

/**
 * Bounds the heap growth of this thread and of the threads it starts from now on (a V8 flag: process-wide, read
 * at each full collection). Set when a build starts its workers, before it loads anything, and when it starts
 * to render: left to V8, loading and the search index took a 30,000-article build's heap to 236 MB before its
 * first full collection after start-up, which left 103 MB alive.
 */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * How much a function must run before V8 hands it to its optimising compiler (TurboFan), in V8's units of
 * bytecode executed: twice V8's default (67,584), for a build that renders every page. That compiler runs on
 * background threads, and in such a build it compiles the hot functions of React, markdown-it and the pages for
 * each thread that renders, and many that are only lukewarm: V8's background threads (that compiler and the
 * garbage collector's helpers) used 0.6 s of CPU at 1,000 articles, a quarter of the build's, and 2 s at 10,000,
 * on the cores the pages need. With twice the budget, fewer lukewarm functions are
 * compiled and the hot ones a little later. Cold builds, interleaved: at 1,000 articles (six pairs, load 6) user
 * CPU 2.02-2.46 s (mean 2.19) against 2.25-2.46 s (mean 2.36), the compiler's threads 0.41-0.49 s against
 * 0.60-0.66 s, the build's thread unchanged; at 10,000 (four pairs, load 5) the compiler saved 0.2 s and the
 * rendering threads spent it: 8.69-9.23 s against 8.73-9.02 s, no change.
 */
export const INTERRUPT_BUDGET = 135_168;

/** Sets INTERRUPT_BUDGET for this process (a V8 flag: every thread, read as functions' budgets are renewed). */
export function budgetOptimisation(): void {
  v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

interface Started {
  worker: Worker;
  /** It failed or exited while waiting: a pool gets a fresh one instead, which reports the failure. */
  gone: boolean;
}

/** Started ahead of a build, not yet given to a pool. */
const started: Started[] = [];

/**
 * Starts `count` render workers now, for the build's pool to take
 * (takeStartedWorker). They do not keep the process alive while they wait.
 * Without a compiled worker, or for none, nothing starts.
 */
export function startRenderWorkers(count: number): void {
  limitHeapGrowth();
  const script = workerScript();
  if (!script || count < 1) return;
  for (let i = 0; i < count; i++) {
    const entry: Started = { worker: newRenderWorker(script), gone: false };
    entry.worker.unref();
    entry.worker.once('error', () => (entry.gone = true));
    entry.worker.once('exit', () => (entry.gone = true));
    started.push(entry);
  }
}

/** A worker started ahead and not taken yet, now held by the caller (it keeps the process alive again). */
export function takeStartedWorker(): Worker | undefined {
  for (let entry = started.shift(); entry; entry = started.shift()) {
    if (entry.gone) continue;
    entry.worker.ref();
    return entry.worker;
  }
  return undefined;
}

/** Stops the workers no pool took: a build that rendered on its own thread, or one that failed before rendering. */
export async function stopStartedWorkers(): Promise<void> {
  await Promise.all(started.splice(0).map(({ worker }) => worker.terminate()));
}
