/**
 * Where a build's output lives, and how a new build takes its place.
 *
 * `dist` (--out) is a symbolic link to one complete release,
 * `dist.releases/<id>/`. A build makes its new release beside it and then
 * flips the link with one rename, which is atomic: whoever reads `dist`
 * (`felt serve`, `felt deploy`, a copy) sees the previous build or the new
 * one, whole, at every moment, whenever the build is killed. Only two
 * releases are kept: the current one and the previous one, which the next
 * build brings up to date and reuses (commit.ts), so a rebuild costs what
 * changed, not one link per file, and a full build makes no folder the
 * previous release has. A build killed
 * after it opened its release leaves that release unfinished and no spare:
 * the next build reworks the unfinished one instead (its salvage), keeping
 * the files it shares with the served release. Whatever else is in
 * `dist.releases/` (a killed build's staging folder, an older unfinished
 * release) is removed by the next build.
 */
import { lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import { MANIFEST_FILE } from './buildCache.ts';
import { crashPoint } from './crashPoints.ts';
import { checkReleaseFolders, removeLeftover } from './swapFaults.ts';
import { heldEntries } from './releaseReaders.ts';

/** The folder of releases next to outDir (same disk, so every rename stays atomic). */
export function releasesDir(outDir: string): string {
  return `${outDir}.releases`;
}

export interface OutputLayout {
  outDir: string;
  releases: string;
  /** The release outDir points at now, when there is a complete one. */
  current?: string;
  /** The other complete release (the previous build), which an incremental build may rework into the next one. */
  spare?: string;
  /**
   * Without a spare, the newest release a killed build left unfinished: an incremental build reworks it, keeping
   * each file that is the served release's own (the same inode) and replacing the others (commit.ts).
   */
  salvage?: string;
  /** An empty folder for this build's files, inside `releases`. */
  staging: string;
  /** Releases and leftovers being removed while the build runs (discard); publishRelease waits for them. */
  removals: Promise<void>[];
}

const STAGING_MARK = '.staging-';
const DISCARD_MARK = '.discarded-';
const LINK_MARK = '.link-';

/** Release names sort by creation time: the newest complete one is the one to restore. */
function newReleaseName(): string {
  return `${Date.now().toString(36).padStart(9, '0')}-${process.pid}`;
}

/** A release with its manifest: whole (the manifest is written last). */
export function isComplete(release: string): boolean {
  return statSync(path.join(release, MANIFEST_FILE), { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * Refuses (BAD_PATH) an output folder felt did not build: a plain folder with files in it and no `.felt/` of felt's
 * bookkeeping. A build adopts a plain folder as an older felt's site, its first release, and a later build removes
 * it: `--out content`, `--out .` or a folder of the operator's own would be deleted. The CLI asks before it loads
 * anything (cli/outputFolder.ts); prepareOutput asks again for every other caller of the build.
 */
export function refuseForeignFolder(outDir: string, flag = '--out'): void {
  let info;
  try {
    info = lstatSync(outDir, { throwIfNoEntry: false });
  } catch (error) {
    // A path through a file (`--out notes.txt/dist`): nothing there to adopt; the build refuses it where it writes.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
    throw error;
  }
  if (!info?.isDirectory()) return;
  const entries = readdirSync(outDir);
  if (entries.length === 0 || entries.includes('.felt')) return;
  throw new FeltError('BAD_PATH', `${flag} names a folder felt did not build (it holds files and no .felt/)`, {
    file: outDir,
    hint: `a build moves such a folder into ${path.basename(outDir)}.releases/ and a later one removes it; move its files away, or choose another folder with ${flag}`,
  });
}

/**
 * mkdirSync(dir, { recursive: true }), one folder at a time: Node 20's recursive mkdir tries again for ever (at 100%
 * CPU) where mkdir answers ENOENT although the parent is there, as /proc does (`--out /proc/x`). Such a folder is
 * refused at once (BAD_PATH, naming outDir); a path through a file still fails as ENOTDIR, as it did.
 */
function makeFoldersOneByOne(dir: string, outDir: string): void {
  const missing: string[] = [];
  for (let at = dir; !statSync(at, { throwIfNoEntry: false }); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Made meanwhile (another build beside this one): what it is, the next steps check.
      if (code === 'EEXIST') continue;
      if (code !== 'ENOENT') throw error;
      throw new FeltError('BAD_PATH', `--out names a folder where felt cannot make one (${path.dirname(folder)} takes no new folders)`, {
        file: outDir,
        hint: 'choose a folder on a disk felt can write to with --out, e.g. dist',
      });
    }
  }
}

/**
 * Makes outDir's layout ready for a build: a plain folder from an older felt
 * becomes the first release, a link lost by hand points again at the newest
 * complete release, and everything but the current and one spare release is
 * removed. Refuses what it did not make (a link elsewhere, a file).
 */
export function prepareOutput(outDir: string): OutputLayout {
  refuseForeignFolder(outDir);
  const releases = releasesDir(outDir);
  const releasesInfo = lstatSync(releases, { throwIfNoEntry: false });
  if (releasesInfo && !releasesInfo.isDirectory()) {
    throw new FeltError('BAD_PATH', `${releases} is not a folder felt made (it keeps the releases ${path.basename(outDir)} links to)`, {
      file: releases,
      hint: 'move it away, or choose another folder with --out',
    });
  }
  makeFoldersOneByOne(releases, outDir);
  checkReleaseFolders(releases);
  let current = currentRelease(outDir, releases);
  if (current === outDir) {
    // A plain folder built by an older felt: it becomes the first release (an
    // interrupted incremental commit of that felt leaves it unfit for reuse,
    // marked so before the move: a release with a manifest is served whole).
    // Between the move and the link there is no outDir: readers then read
    // the newest complete release (releaseReaders.ts), this one.
    if (statSync(path.join(outDir, '.felt', 'commit.json'), { throwIfNoEntry: false })) rmSync(path.join(outDir, MANIFEST_FILE), { force: true });
    const moved = path.join(releases, newReleaseName());
    renameSync(outDir, moved);
    crashPoint('migrated');
    pointAt(outDir, moved);
    current = moved;
  }
  // A release a reader (deploy, serve) holds is neither reworked nor removed.
  const held = heldEntries(releases);
  const complete = readdirSync(releases)
    .filter((name) => !name.startsWith('.'))
    .map((name) => path.join(releases, name))
    .filter((release) => release !== current && isComplete(release) && !held.has(release))
    .sort();
  if (!current && complete.length) {
    // outDir was removed (by hand, or a build was killed migrating a plain folder): serve the newest release again.
    current = complete.pop()!;
    pointAt(outDir, current);
  }
  const spare = complete.pop();
  const salvage = spare ? undefined : newestUnfinished(releases, current, held);
  const removals: Promise<void>[] = [];
  for (const name of readdirSync(releases)) {
    const entry = path.join(releases, name);
    if (entry !== current && entry !== spare && entry !== salvage && !held.has(entry)) removals.push(discard(entry));
  }
  removeOlderLeftovers(outDir);
  const staging = path.join(releases, `${STAGING_MARK}${newReleaseName()}`);
  mkdirSync(staging);
  crashPoint('prepared');
  return { outDir, releases, current, spare, salvage, staging, removals };
}

/**
 * The newest release a build opened and did not finish (no manifest), when it can be reworked: a release's name
 * (not a staging or discarded folder's), not served, not held by a reader. Release names sort by creation time.
 */
function newestUnfinished(releases: string, current: string | undefined, held: ReadonlySet<string>): string | undefined {
  return readdirSync(releases, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => path.join(releases, entry.name))
    .filter((release) => release !== current && !held.has(release) && !isComplete(release))
    .sort()
    .pop();
}

/**
 * Removes a folder of releases/ while the build goes on: it is renamed out of
 * the way at once (so no build takes a half-removed release for a whole one)
 * and deleted in the background. A release holds one file per page and its
 * data, tens of thousands of them: deleting them after the flip cost a
 * rebuild over an existing dist/ seconds of its wall time (3.4 s at 10,000
 * articles) that it now spends rendering. A build killed meanwhile leaves the
 * renamed folder, which the next build removes like any leftover.
 */
function discard(entry: string): Promise<void> {
  let target = entry;
  if (!path.basename(entry).startsWith(DISCARD_MARK)) {
    target = path.join(path.dirname(entry), `${DISCARD_MARK}${path.basename(entry)}`);
    try {
      renameSync(entry, target);
    } catch {
      target = entry;
    }
  }
  // Errors surface when the build waits for it (publishRelease), as rmSync's did.
  const removal = rm(target, { recursive: true, force: true, maxRetries: 2 });
  removal.catch(() => undefined);
  return removal;
}

/** What builds before releases left next to outDir: staging and previous folders, and a link not yet renamed. */
function removeOlderLeftovers(outDir: string): void {
  const base = path.basename(outDir);
  const marks = [`${base}.staging-`, `${base}.previous-`, `${base}${LINK_MARK}`];
  for (const name of readdirSync(path.dirname(outDir))) {
    if (marks.some((mark) => name.startsWith(mark))) rmSync(path.join(path.dirname(outDir), name), { recursive: true, force: true });
  }
}

/**
 * The release outDir links to; outDir itself when it is a plain folder;
 * undefined when there is none (or the link leads to a release removed by
 * hand). A link felt did not make is refused: felt replaces only its own.
 */
function currentRelease(outDir: string, releases: string): string | undefined {
  const info = lstatSync(outDir, { throwIfNoEntry: false });
  if (!info) return undefined;
  if (info.isDirectory()) return outDir;
  const foreign = new FeltError('BAD_PATH', `${outDir} is ${info.isSymbolicLink() ? `a link to ${readlinkSync(outDir)}` : 'a file'}, not a site felt built`, {
    file: outDir,
    hint: `felt makes ${path.basename(outDir)} a link into ${path.basename(releases)}/; move it away, or choose another folder with --out`,
  });
  if (!info.isSymbolicLink()) throw foreign;
  const target = path.resolve(path.dirname(outDir), readlinkSync(outDir));
  if (path.dirname(target) !== releases || path.basename(target).startsWith('.')) throw foreign;
  return isComplete(target) ? target : undefined;
}

/** Points outDir at `release` in one atomic step: a new link is made beside it and renamed over it. */
export function pointAt(outDir: string, release: string): void {
  const link = path.join(path.dirname(outDir), `${path.basename(outDir)}${LINK_MARK}${process.pid}`);
  rmSync(link, { force: true });
  // Relative, so the project folder can be moved or copied with its releases.
  symlinkSync(path.relative(path.dirname(outDir), release), link, 'dir');
  crashPoint('link-made');
  renameSync(link, outDir);
}

/** A fresh, unused release path. */
export function nextReleasePath(layout: OutputLayout): string {
  return path.join(layout.releases, newReleaseName());
}

/**
 * Makes `release` the served one, then removes every release but it and the
 * one it replaces (the spare of the next build).
 */
export async function publishRelease(layout: OutputLayout, release: string): Promise<void> {
  // What is being removed is gone before the flip, as it was when it was removed up front.
  await Promise.all(layout.removals);
  crashPoint('release-complete');
  pointAt(layout.outDir, release);
  crashPoint('flipped');
  const held = heldEntries(layout.releases);
  for (const name of readdirSync(layout.releases)) {
    const entry = path.join(layout.releases, name);
    // The new site is served already: what cannot be removed now (a disk gone read-only) the next build removes.
    if (entry !== release && entry !== layout.current && !held.has(entry)) removeLeftover(entry);
  }
}
