/**
 * Linking the served release's files into a release being made (commit.ts), on this thread and, for a long list,
 * on a thread beside it (linkWorker.ts). A release made without a spare, or from a spare of other templates, links
 * every file of the site: 256,000 at 100,000 articles, each a link() (and a folder, or the stale file's unlink,
 * beside it), all of it the kernel's work. Two threads, each with its own run of the sorted list (so they work in
 * different folders and wait less on each other's locks), took the first night after a cold 100,000-article build
 * from 12.2 to 9.7 s, and the night after a settings change from 24.7 to 20.0 s (`node bench/settingsChange.mjs
 * --articles 100000`, 2026-11-30; docs/performance-log.md).
 */
import { linkSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { besideModule } from '../../shared/paths.ts';
import { linkFromServed, makeFolders, removeFile } from './swapFaults.ts';
import { deserializeError, type SerializedError } from './workerErrors.ts';

/**
 * Where the links go. empty: a new release, each folder made once, before its first file. older: a release made from
 * an older one, whose folders are there: the link is tried first and a folder made only when it is missing, which
 * spares an existing folder's mkdir (at 100,000 articles, 200,000 of them). replacing: an older release whose every
 * file differs (a spare of other templates): the stale file goes before the link is tried, where otherwise a failed
 * link says it is there.
 */
export type LinkInto = 'empty' | 'older' | 'replacing';

/** What a link thread is given (linkWorker.ts). */
export interface LinkJob {
  release: string;
  currentRelease: string;
  into: LinkInto;
  files: string[];
  /** The output folder, for the message of a failure the machine causes (a full disk). */
  outDir: string;
}

/** Links a file of the served release into `release`, replacing what is there (never served). */
export function linker(release: string, currentRelease: string, into: LinkInto): (file: string) => void {
  const folders = new Set<string>();
  return (file) => {
    const target = path.join(release, file);
    const from = path.join(currentRelease, file);
    if (into === 'empty') {
      const folder = path.dirname(target);
      if (!folders.has(folder)) {
        makeFolders(folder);
        folders.add(folder);
      }
      return linkFromServed(from, target, currentRelease);
    }
    // link() never replaces: the older release's stale file goes first (it is not served).
    if (into === 'replacing') removeFile(target);
    try {
      linkSync(from, target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') removeFile(target);
      else if (code === 'ENOENT' && !lstatSync(path.dirname(target), { throwIfNoEntry: false })) makeFolders(path.dirname(target));
      // Anything else (the served file gone, a full disk) is said by linkFromServed's own try.
    }
    linkFromServed(from, target, currentRelease);
  };
}

/** Below this many files a second thread costs more to start (about 30 ms) than it saves. */
const THREAD_MIN = 10_000;

/**
 * Links `files` (paths relative to both releases); sorts them. With the compiled link thread (lib/link-worker.js; the
 * TypeScript sources, as tests run them, have none) and many files, the second half of the list is linked there.
 * `thread` names another script and another least number of files (tests).
 */
export async function linkFiles(job: LinkJob, thread: { script?: string; min?: number } = {}): Promise<void> {
  const { release, currentRelease, into, files } = job;
  const script = files.length >= (thread.min ?? THREAD_MIN) ? (thread.script ?? besideModule(import.meta.url, 'link-worker.js')) : undefined;
  const link = linker(release, currentRelease, into);
  if (!script) {
    for (const file of files) link(file);
    return;
  }
  files.sort();
  const half = files.length >> 1;
  const worker = new Worker(script, { workerData: { ...job, files: files.slice(half) } satisfies LinkJob });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('message', (message: { error?: SerializedError }) => (message.error ? reject(deserializeError(message.error)) : resolve()));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the link thread stopped (exit code ${code}) before it had linked its files`)));
  });
  try {
    for (let i = 0; i < half; i++) link(files[i]!);
  } catch (error) {
    // The release is unfinished either way (the next build reworks it): the thread is stopped, this failure said.
    done.catch(() => undefined);
    await worker.terminate();
    throw error;
  }
  await done;
}
