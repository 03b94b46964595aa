/**
 * A large site's article folders listed, and their files' sizes and times
 * found, on another thread. A rebuild checks every article file against the
 * article cache (articleCache.ts): at 100,000 articles, listing the folder
 * left the build's thread waiting a tenth of a second for readdir, and the
 * 100,000 lstat calls took it a quarter of a second or more. A worker does
 * both while that thread reads the settings and parses the cache. Only plain
 * files are answered here; anything else (a link, a folder, a file gone) is
 * left to inspectInput on the build's thread, which has the words for each
 * refusal.
 */
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { folderOutside } from '../../shared/inputFile.ts';
import { articleFolder } from '../../shared/paths.ts';
import { CONTENT_LOCALES } from '../../shared/types.ts';

/** An article file's name: markdown, and not an editor's or operating system's dot file (macOS ._x.md). */
export function isArticleFile(name: string): boolean {
  return name.endsWith('.md') && !name.startsWith('.');
}

export interface FolderListing {
  /** The folder's article files (isArticleFile), in name order; none when it cannot be read. */
  names: string[];
  /** 1 where the name is a plain file; its size and time are then set. */
  regular: Uint8Array;
  size: Float64Array;
  mtimeMs: Float64Array;
}

/** Below this many articles a worker costs more to start than the calls it takes over. */
export const BACKGROUND_STAT_MIN = 4000;

/**
 * Whether a content folder's article cache says its site is large enough for listInBackground: the decision is made
 * before anything is listed, so that the worker starts first. A cache row is 300-400 bytes.
 */
export function largeSiteCache(cacheFile: string): boolean {
  try {
    return (statSync(cacheFile, { throwIfNoEntry: false })?.size ?? 0) >= BACKGROUND_STAT_MIN * 256;
  } catch {
    // Its folder is not a folder (build.ts checkCacheFolder says so, in its words): no cache to go by.
    return false;
  }
}

// CommonJS, run with eval: nothing to resolve or compile, so the worker starts in a few milliseconds.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { lstatSync, readdirSync } = require('node:fs');
const { sep } = require('node:path');
const isArticleFile = ${isArticleFile.toString()};
const listings = workerData.map((folder) => {
  let names = [];
  try {
    names = readdirSync(folder).filter(isArticleFile).sort();
  } catch {}
  const regular = new Uint8Array(names.length);
  const size = new Float64Array(names.length);
  const mtimeMs = new Float64Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const info = lstatSync(folder + sep + names[i], { throwIfNoEntry: false });
    if (info && info.isFile()) {
      regular[i] = 1;
      size[i] = info.size;
      mtimeMs[i] = info.mtimeMs;
    }
  }
  return { names, regular, size, mtimeMs };
});
parentPort.postMessage(listings, listings.flatMap((l) => [l.regular.buffer, l.size.buffer, l.mtimeMs.buffer]));
`;

/** Starts listing `folders` (and lstat-ing their article files) on a worker; the promise holds a listing per folder. */
export function listInBackground(folders: readonly string[]): Promise<FolderListing[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: folders });
    worker.once('message', (listings: FolderListing[]) => {
      resolve(listings);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the file-listing thread stopped (exit code ${code})`)));
  });
}

/** A listing felt build started before its modules loaded, for loadContent to take if it lists the same folders. */
let ahead: { folders: readonly string[]; listing: Promise<FolderListing[] | undefined> } | undefined;

/**
 * The article folders loadContent lists when it loads every content locale: each locale's, but one that a symbolic
 * link takes out of the content folder (loadContent reports it, and reads nothing in it).
 */
function articleFolders(root: string): string[] {
  return CONTENT_LOCALES.map((locale) => articleFolder(root, locale)).filter((folder) => folderOutside(folder, root) === undefined);
}

/**
 * Starts listing a large site's article folders now (felt build, before the build's modules load): the listing then
 * runs while they load, 0.15-0.2 s of the build's thread, instead of after.
 */
export function listArticlesAhead(root: string, cacheFile: string): void {
  if (!largeSiteCache(cacheFile)) return;
  const folders = articleFolders(root);
  ahead = { folders, listing: listInBackground(folders).catch(() => undefined) };
}

/** The listing started ahead of these folders, if there is one (taken once); undefined otherwise. */
export function takeListingAhead(folders: readonly string[]): Promise<FolderListing[] | undefined> | undefined {
  const started = ahead;
  ahead = undefined;
  const same = started && started.folders.length === folders.length && started.folders.every((folder, i) => folder === folders[i]);
  return same ? started.listing : undefined;
}
