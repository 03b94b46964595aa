/**
 * Making a release from an older one (issues 13 and 14).
 *
 * The current release is never touched: it is being served. The new release
 * is made from the spare one (the build before, see output.ts), opened before
 * anything is rendered (openRelease): renamed to the new release's name, its
 * manifest removed, it is unfinished from then on, never served, and removed
 * by the next build if this one does not finish. The build writes what it
 * renders straight into it, each file replacing the one there (fileSink.ts:
 * a file shared with another release is only ever replaced, never written
 * into, so a hard link shares bytes that never change). Then
 * (assembleRelease) the files no longer in the site are deleted, the files
 * that changed in the build before and were not written now are hard-linked
 * from the current release, and the manifest goes in last. A spare of other
 * templates, or a release a killed build left unfinished (output.ts), is
 * reworked file by file against the served release (reworkSalvage). Without
 * either the release starts empty and every file not written is linked. Then
 * outDir flips to it. A build that renders every page writes them over the
 * spare's the same way (openRewrite, finishRewrite).
 *
 * Rendering into the release, not into a staging folder moved in afterwards:
 * at 100,000 articles a rebuild made two staging folders for each of its 200
 * or so pages, moved every file, and removed the folders, and on this
 * project's ext4 creating a folder right after others were removed took the
 * render worker 0.4 ms each.
 *
 * Each incremental build's manifest records its delta from the release it
 * was made beside (buildCache.ts): when the spare is that release, the next
 * build knows what to bring up to date without reading the spare's manifest
 * or walking every entry of both (at 100,000 articles, 24 MB and 400,000
 * entries for the 20 pages a night changes).
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../shared/atomicWrite.ts';
import { isInside } from '../../shared/insideFolder.ts';
import { pageOutputPathsOf } from '../routes/pageFiles.ts';
import { MANIFEST_FILE, readManifest, type BuildManifest } from './buildCache.ts';
import { isComplete, nextReleasePath, type OutputLayout } from './output.ts';
import { crashPoint } from './crashPoints.ts';
import { makeFolders, removeFile } from './swapFaults.ts';
import { linkFiles, type LinkInto } from './releaseLinks.ts';

/** The release an incremental build writes into, and what it was made from. */
export interface OpenedRelease {
  folder: string;
  /**
   * chained: the spare is the release the served one was made beside (the usual night): two deltas say what differs.
   * compared: another spare of the same templates, compared entry by entry. salvaged: a release a killed build left
   * unfinished, its files compared with the served release's. reworked: a spare of other templates (made before a
   * change of settings or of felt), every file the build did not write replaced by the served one's. none: an
   * empty folder.
   */
  from: 'chained' | 'compared' | 'salvaged' | 'reworked' | 'none';
  spareManifest?: BuildManifest;
}

export interface ReleasePlan {
  opened: OpenedRelease;
  /** The files this build wrote into the release (relative paths). */
  written: string[];
  /** This build's manifest: every file of the new release, and its delta from the served one. */
  current: BuildManifest;
  /** The served release's manifest, which this build reused. */
  served: BuildManifest;
  /** The manifest as written, which goes in last. */
  manifestText: string;
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

/**
 * Opens an incremental build's new release, before anything is written into it: the spare, renamed, when it can be
 * brought up to date (it was made from the same templates), else a new folder.
 */
export function openRelease(layout: OutputLayout, served: BuildManifest, templateKey: string): OpenedRelease {
  const folder = nextReleasePath(layout);
  let opened: OpenedRelease = { folder, from: 'none' };
  const servedDelta = served.delta;
  if (layout.spare && servedDelta && servedDelta.from === path.basename(layout.spare) && isComplete(layout.spare)) {
    opened = { folder, from: 'chained' };
  } else if (layout.spare) {
    // Page keys leave out the templates (asset names, the shell): a spare made from others has stale files under
    // the same keys, so it is of no use. (A chained spare always shares them: the served build reused it.)
    // Still worth reworking as a killed build's release is (reworkSalvage): its folders are there, and its files are
    // replaced by links, where an empty folder takes a new folder for every page. At 10,000 articles the night after
    // a settings change took 7.3-8.9 s that way and 3.1-3.3 s this way (bench/settingsChange.mjs, 2026-11-30).
    const read = readManifest(layout.spare);
    opened = read?.templateKey === templateKey ? { folder, from: 'compared', spareManifest: read } : { folder, from: 'reworked' };
  }
  if (opened.from !== 'none') {
    // Unfinished from here on, until the new manifest arrives: unfinished before it takes the newest name, so that a
    // kill between the two never leaves an older site as the newest complete release (the one restored when dist
    // goes missing, output.ts).
    rmSync(path.join(layout.spare!, MANIFEST_FILE), { force: true });
    renameSync(layout.spare!, folder);
  } else if (layout.salvage) {
    renameSync(layout.salvage, folder);
    opened = { folder, from: 'salvaged' };
  } else {
    mkdirSync(folder);
  }
  crashPoint('release-opened');
  return opened;
}

/**
 * Opens a full build's release (one that renders every page: a first build over a site, a change of settings or of
 * felt, --no-incremental) in the spare, or in a killed build's unfinished release: renamed to the new release's
 * name, its manifest removed. The build writes every file over the one there (fileSink.ts), and finishRewrite
 * removes what the new site does not have. A new folder instead would take a folder for every page and the spare's
 * removal, while the pages render, its every folder: at 10,000 articles such a build took 6.8-7.4 s against 4.7 s
 * for a cold one (docs/performance-log.md). Undefined when there is neither: the build writes into its staging folder.
 */
export function openRewrite(layout: OutputLayout): string | undefined {
  const older = layout.spare ?? layout.salvage;
  if (!older) return undefined;
  const folder = nextReleasePath(layout);
  // Unfinished before it takes the newest name (openRelease says why).
  rmSync(path.join(older, MANIFEST_FILE), { force: true });
  renameSync(older, folder);
  layout.spare = layout.salvage = undefined;
  crashPoint('release-opened');
  return folder;
}

/** Finishes a full build's release opened by openRewrite: what the build did not write goes, the manifest goes in last. */
export function finishRewrite(release: string, written: readonly string[], manifestText: string): void {
  removeUnwanted(release, '', new Set(written));
  crashPoint('release-pruned');
  writeManifest(release, manifestText);
}

/** How a release was finished: what it was made from, and how many files were linked from the served release. */
export interface Assembled {
  release: string;
  from: OpenedRelease['from'];
  linked: number;
}

/**
 * Finishes the release this build wrote into. Its thousands of small calls are synchronous, one at a time, but for
 * the links: a long list of them is shared with a thread beside this one (releaseLinks.ts).
 */
export async function assembleRelease(layout: OutputLayout, plan: ReleasePlan): Promise<Assembled> {
  const { folder: release, from } = plan.opened;
  const wanted = plan.current;
  const written = new Set(plan.written);
  const link = (files: string[], into: LinkInto) => linkFiles({ release, currentRelease: layout.current!, into, files, outDir: layout.outDir });
  if (from === 'salvaged' || from === 'reworked') {
    const toLink = reworkSalvage(release, layout.current!, wanted, written, from);
    await link(toLink, from === 'reworked' ? 'replacing' : 'older');
    const linked = toLink.length;
    crashPoint('release-linked');
    writeManifest(release, plan.manifestText);
    return { release, from, linked };
  }
  // What makes the spare into the new release. When the served release was made from the spare (the usual
  // night), that is what changed then (its delta) and what changes now: two short lists. Otherwise the spare's
  // manifest is compared entry by entry; without a spare, every file is placed.
  let toUpdate: { pages: Iterable<string>; others: Iterable<string> };
  if (from === 'chained') {
    const servedDelta = plan.served.delta!;
    toUpdate = { pages: new Set([...servedDelta.pages, ...wanted.delta!.pages]), others: new Set([...servedDelta.others, ...wanted.delta!.others]) };
  } else {
    toUpdate = manifestDelta(plan.opened.spareManifest ?? { pages: new Map(), others: new Map() }, wanted);
  }
  // What is gone goes. (A file this build wrote is never a gone page's or file's: the route check gives each file one owner.)
  const emptied = new Set<string>();
  const remove = (file: string) => {
    if (written.has(file)) return;
    removeFile(path.join(release, file));
    emptied.add(path.dirname(path.join(release, file)));
  };
  for (const page of toUpdate.pages) if (!wanted.pages.has(page)) pageOutputPathsOf(page).forEach(remove);
  for (const file of toUpdate.others) if (!wanted.others.has(file)) remove(file);
  // Deepest first, once per folder: a folder of many removed files costs one rmdir, not one per file.
  for (const folder of [...emptied].sort((a, b) => b.length - a.length)) removeEmptyFolders(release, folder);
  crashPoint('release-pruned');

  // What this build did not write is the current release's: linked from there where the spare's differs.
  const toLink: string[] = [];
  const place = (file: string) => {
    if (!written.has(file)) toLink.push(file);
  };
  if (from === 'none') {
    for (const page of wanted.pages.keys()) pageOutputPathsOf(page).forEach(place);
    for (const file of wanted.others.keys()) place(file);
  } else {
    for (const page of toUpdate.pages) if (wanted.pages.has(page)) pageOutputPathsOf(page).forEach(place);
    for (const file of toUpdate.others) if (wanted.others.has(file)) place(file);
  }
  await link(toLink, from === 'none' ? 'empty' : 'older');
  crashPoint('release-linked');
  writeManifest(release, plan.manifestText);
  return { release, from, linked: toLink.length };
}

/** The manifest goes in last: with it, the release is complete (output.ts isComplete). */
function writeManifest(release: string, manifestText: string): void {
  makeFolders(path.dirname(path.join(release, MANIFEST_FILE)));
  writeFileAtomicSync(path.join(release, MANIFEST_FILE), manifestText);
}

/**
 * Makes a killed build's unfinished release into this build's (from: 'salvaged'), or a spare of other templates
 * (from: 'reworked'), but for the links: returns the files to link. What that build left is not recorded anywhere
 * (its spare's files, some it replaced, some it linked, one cut short by the kill), but a file that is the served
 * release's own, the same inode, is exactly what would be linked there: a file shared with another release is only
 * ever replaced, never written into (fileSink.ts). So what is not a file of the new release goes, each file this
 * build did not write is kept when it is the served one's and linked again when not, and the rest is linked as into
 * an empty folder. After a kill that is nearly every file kept for a stat each; a spare of other templates has its
 * folders, where an empty folder cost a new folder for every page as well as a link for every file of the site.
 */
function reworkSalvage(release: string, currentRelease: string, wanted: BuildManifest, written: ReadonlySet<string>, from: 'salvaged' | 'reworked'): string[] {
  const files = new Set<string>();
  for (const page of wanted.pages.keys()) for (const file of pageOutputPathsOf(page)) files.add(file);
  for (const file of wanted.others.keys()) files.add(file);
  removeUnwanted(release, '', files);
  crashPoint('release-pruned');
  // A spare of other templates shares no file with the served release, a full build's (which wrote every file): its
  // files are replaced without comparing each with the served one's (one it did share would be linked again).
  const toLink: string[] = [];
  for (const file of files) {
    if (written.has(file)) continue;
    if (from === 'salvaged') {
      const here = lstatSync(path.join(release, file), { throwIfNoEntry: false });
      const served = here && lstatSync(path.join(currentRelease, file), { throwIfNoEntry: false });
      if (here && served && here.ino === served.ino && here.dev === served.dev) continue;
    }
    toLink.push(file);
  }
  return toLink;
}

/**
 * Removes from `root` every entry that is not one of `files` (paths relative to it, with /), and the folders left
 * empty; true when `relative`'s folder is left empty. A folder where one of the files goes goes whole.
 */
function removeUnwanted(root: string, relative: string, files: ReadonlySet<string>): boolean {
  let kept = 0;
  for (const entry of readdirSync(relative ? path.join(root, relative) : root, { withFileTypes: true })) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    const full = path.join(root, name);
    if (entry.isDirectory() && !files.has(name)) {
      if (removeUnwanted(root, name, files)) rmdirSync(full);
      else kept++;
    } else if (!entry.isDirectory() && files.has(name)) {
      kept++;
    } else {
      rmSync(full, { recursive: true, force: true });
    }
  }
  return kept === 0;
}

/** A deleted article's folder goes too, up to (not including) the release folder. */
function removeEmptyFolders(root: string, folder: string): void {
  let current = folder;
  while (isInside(current, root)) {
    try {
      rmdirSync(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
