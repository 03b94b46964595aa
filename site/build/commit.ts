/**
 * Making an incremental build's release (issue 14).
 *
 * The current release is never touched: it is being served. The new release
 * is made from the spare one (the build before, see output.ts), brought up
 * to date with what differs: the files this build rendered are moved in from
 * its staging folder, the files that changed in the build before are
 * hard-linked from the current release (files are only ever replaced, never
 * rewritten, so a link shares bytes that never change), and the files no
 * longer in the site are deleted. Without a spare, every unchanged file is
 * linked. The manifest goes in last: a release without one is unfinished,
 * never served, and removed by the next build. Then outDir flips to it.
 *
 * Each incremental build's manifest records its delta from the release it
 * was made beside (buildCache.ts): when the spare is that release, the next
 * build knows what to bring up to date without reading the spare's manifest
 * or walking every entry of both (at 100,000 articles, 24 MB and 400,000
 * entries for the 20 pages a night changes).
 */
import { mkdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { pageOutputPathsOf } from '../routes/pageFiles.ts';
import { MANIFEST_FILE, readManifest, type BuildManifest } from './buildCache.ts';
import { isComplete, nextReleasePath, type OutputLayout } from './output.ts';
import { crashPoint } from './crashPoints.ts';
import { linkFromServed, makeFolders } from './swapFaults.ts';

export interface ReleasePlan {
  /** This build's staging folder and the files written into it (relative paths, the manifest last). */
  staging: string;
  written: string[];
  /** This build's manifest: every file of the new release, and its delta from the served one. */
  current: BuildManifest;
  /** The served release's manifest, which this build reused. */
  served: BuildManifest;
}

/**
 * The pages and other files whose key differs between two manifests, either way: what a release made from `had`
 * must change to become `wanted`'s. One pass over each map; no file name is made.
 */
export function manifestDelta(had: Pick<BuildManifest, 'pages' | 'others'>, wanted: Pick<BuildManifest, 'pages' | 'others'>) {
  const differing = (before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>) => {
    const names: string[] = [];
    for (const [name, value] of after) if (before.get(name) !== value) names.push(name);
    for (const name of before.keys()) if (!after.has(name)) names.push(name);
    return names;
  };
  return { pages: differing(had.pages, wanted.pages), others: differing(had.others, wanted.others) };
}

/** Makes the new release; returns its folder. Synchronous on purpose: thousands of small calls, one at a time. */
export function assembleRelease(layout: OutputLayout, plan: ReleasePlan): string {
  const release = nextReleasePath(layout);
  const wanted = plan.current;
  // What makes the spare into the new release. When the served release was made from the spare (the usual
  // night), that is what changed then (its delta) and what changes now: two short lists. Otherwise the spare's
  // manifest is read and compared entry by entry; without a spare, every file is placed.
  let spareState: 'chained' | 'compared' | 'none' = 'none';
  let toUpdate: { pages: Iterable<string>; others: Iterable<string> };
  const servedDelta = plan.served.delta;
  if (layout.spare && servedDelta && servedDelta.from === path.basename(layout.spare) && isComplete(layout.spare)) {
    spareState = 'chained';
    toUpdate = { pages: new Set([...servedDelta.pages, ...wanted.delta!.pages]), others: new Set([...servedDelta.others, ...wanted.delta!.others]) };
  } else {
    // Page keys leave out the templates (asset names, the shell): a spare made from others has stale files under
    // the same keys, so it is of no use. (A chained spare always shares them: the served build reused it.)
    const read = layout.spare ? readManifest(layout.spare) : undefined;
    const spareManifest = read?.templateKey === wanted.templateKey ? read : undefined;
    if (spareManifest) spareState = 'compared';
    toUpdate = manifestDelta(spareManifest ?? { pages: new Map(), others: new Map() }, wanted);
  }
  if (spareState !== 'none') {
    renameSync(layout.spare!, release);
    // From here on the release is unfinished until the new manifest arrives.
    unlinkSync(path.join(release, MANIFEST_FILE));
  } else {
    mkdirSync(release);
  }
  crashPoint('release-opened');
  // What is gone goes first: whatever a removed file's name is wanted for now is moved or linked in after it.
  const emptied = new Set<string>();
  const remove = (file: string) => {
    removeFile(path.join(release, file));
    emptied.add(path.dirname(path.join(release, file)));
  };
  for (const page of toUpdate.pages) if (!wanted.pages.has(page)) pageOutputPathsOf(page).forEach(remove);
  for (const file of toUpdate.others) if (!wanted.others.has(file)) remove(file);
  // Deepest first, once per folder: a folder of many removed files costs one rmdir, not one per file.
  for (const folder of [...emptied].sort((a, b) => b.length - a.length)) removeEmptyFolders(release, folder);

  const folders = new Set<string>();
  const place = (file: string, from: string, how: 'move' | 'link') => {
    const target = path.join(release, file);
    const folder = path.dirname(target);
    if (!folders.has(folder)) {
      makeFolders(folder);
      folders.add(folder);
    }
    if (how === 'move') return renameSync(from, target);
    try {
      linkFromServed(from, target, layout.current!);
    } catch (error) {
      // link() never replaces: the spare's stale file goes first (it is not served).
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      removeFile(target);
      linkFromServed(from, target, layout.current!);
    }
  };
  const written = new Set(plan.written);
  const half = Math.floor(plan.written.length / 2);
  plan.written.forEach((file, index) => {
    if (index === half) crashPoint('release-half-moved');
    if (file !== MANIFEST_FILE) place(file, path.join(plan.staging, file), 'move');
  });
  // What this build did not write is the current release's: linked from there where the spare's differs.
  const currentRelease = layout.current!;
  const link = (file: string) => {
    if (!written.has(file)) place(file, path.join(currentRelease, file), 'link');
  };
  if (spareState === 'none') {
    for (const page of wanted.pages.keys()) pageOutputPathsOf(page).forEach(link);
    for (const file of wanted.others.keys()) link(file);
  } else {
    for (const page of toUpdate.pages) if (wanted.pages.has(page)) pageOutputPathsOf(page).forEach(link);
    for (const file of toUpdate.others) if (wanted.others.has(file)) link(file);
  }
  crashPoint('release-linked');
  place(MANIFEST_FILE, path.join(plan.staging, MANIFEST_FILE), 'move');
  return release;
}

/** Gone already is fine: the spare is felt's, but a file in it may have been removed by hand. */
function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A deleted article's folder goes too, up to (not including) the release folder. */
function removeEmptyFolders(root: string, folder: string): void {
  let current = folder;
  while (current.startsWith(root + path.sep)) {
    try {
      rmdirSync(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
