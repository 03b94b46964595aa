/**
 * The render workers' threads, apart from the pool that feeds them
 * (renderPool.ts) so that they can start before the build has loaded
 * anything: a worker spends its first 0.2–0.3 s of CPU loading React,
 * markdown-it and the components, and `felt build` starts its workers
 * (startRenderWorkers) before it even loads the build's own modules, so that
 * this happens on the other cores while the main thread loads the content.
 * A worker waits for its RenderSetup (a message, renderWorker.ts), which only
 * the build can make. This module imports nothing but Node's.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export function defaultThreads(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
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
  for (const candidate of ['./render-worker.js', '../render-worker.js']) {
    const script = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(script)) return script;
  }
  return undefined;
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
  const script = workerScript();
  if (!script || count < 1) return;
  for (let i = 0; i < count; i++) {
    const entry: Started = { worker: new Worker(script), gone: false };
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
