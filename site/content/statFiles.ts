/**
 * The size and modification time of many files, found on another thread.
 * A rebuild of a large site checks every article file against the article
 * cache (articleCache.ts): 100,000 lstat calls, a quarter of a second or
 * more of the main thread, which meanwhile has the cache itself to parse.
 * A worker does the calls while it does. Only plain files are answered
 * here; anything else (a link, a folder, a file gone) is left to
 * inspectInput on the main thread, which has the words for each refusal.
 */
import { Worker } from 'node:worker_threads';

export interface FileStats {
  /** 1 where the path is a plain file; its size and time are then set. */
  regular: Uint8Array;
  size: Float64Array;
  mtimeMs: Float64Array;
}

/** Below this many files a worker costs more to start than the calls it takes over. */
export const BACKGROUND_STAT_MIN = 4000;

// CommonJS, run with eval: nothing to resolve or compile, so the worker starts in a few milliseconds.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { lstatSync } = require('node:fs');
const files = workerData;
const regular = new Uint8Array(files.length);
const size = new Float64Array(files.length);
const mtimeMs = new Float64Array(files.length);
for (let i = 0; i < files.length; i++) {
  const info = lstatSync(files[i], { throwIfNoEntry: false });
  if (info && info.isFile()) {
    regular[i] = 1;
    size[i] = info.size;
    mtimeMs[i] = info.mtimeMs;
  }
}
parentPort.postMessage({ regular, size, mtimeMs }, [regular.buffer, size.buffer, mtimeMs.buffer]);
`;

/** Starts lstat-ing `files` on a worker; the promise holds the answers in the same order. */
export function statInBackground(files: readonly string[]): Promise<FileStats> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: files });
    worker.once('message', (stats: FileStats) => {
      resolve(stats);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the file-checking thread stopped (exit code ${code})`)));
  });
}
