/**
 * What the machine or a hand can do to a build's folders while it swaps
 * (issue 14): a path of the wrong kind where felt keeps its own folders, a
 * served release removed during the build, a disk that stops taking
 * writes. Each becomes one FeltError naming the path and what to do; none
 * touches what `dist` serves, which stays the previous build, whole.
 */
import { linkSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import { isInside } from '../../shared/insideFolder.ts';

function kindOf(info: { isSymbolicLink(): boolean }, file: string): string {
  if (!info.isSymbolicLink()) return 'a file';
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ? 'a link to another folder' : 'a link that leads to no folder';
}

/**
 * Every release in `releases` is a folder felt made there. A link would make
 * a build rework (and a later one delete) files somewhere else; a file is
 * nothing felt made. Dot entries are felt's own (staging folders, leases).
 */
export function checkReleaseFolders(releases: string): void {
  for (const name of readdirSync(releases)) {
    if (name.startsWith('.')) continue;
    const entry = path.join(releases, name);
    const info = lstatSync(entry);
    if (info.isDirectory()) continue;
    throw new FeltError('BAD_PATH', `${kindOf(info, entry)}, not a release felt made`, {
      file: entry,
      hint: `move it out of ${path.basename(releases)}/ (felt keeps only the release folders it made there), then run the build again`,
    });
  }
}

/**
 * .felt-cache/ next to the content folder holds the article cache. A link to
 * a folder is fine (a cache on another disk); a file, or a link to none, is
 * refused before the build starts instead of failing when the cache is saved.
 */
export function checkCacheFolder(dir: string): void {
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (!info || info.isDirectory() || (info.isSymbolicLink() && statSync(dir, { throwIfNoEntry: false })?.isDirectory())) return;
  throw new FeltError('BAD_PATH', `${kindOf(info, dir)}, not a folder (felt keeps its article cache there)`, {
    file: dir,
    hint: 'move it away (felt makes the folder again), or build with --no-incremental',
  });
}

/**
 * Links an unchanged file of the served release into the new one. When it
 * is gone, the release was changed by hand during the build: nothing of the
 * new release is served, and a full build makes every file again.
 */
export function linkFromServed(from: string, to: string, served: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || statSync(path.dirname(to), { throwIfNoEntry: false })?.isDirectory() !== true) throw error;
    const gone = statSync(served, { throwIfNoEntry: false }) ? from : served;
    throw new FeltError('BAD_PATH', 'removed during the build (it is part of the release the build started from)', {
      file: gone,
      hint: 'run felt build --no-incremental, which makes every file again',
      cause: error,
    });
  }
}

/** Removes what a failed build left; when that fails too (a read-only disk), the next build removes it. */
export function removeLeftover(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // The build's own failure is the one to report; a leftover is the next build's to remove.
  }
}

/**
 * mkdir -p that fails with the real cause: Node's recursive mkdir answers
 * ENOENT on a read-only disk, which would read as felt's own bug. Then the
 * first missing folder is made alone, which fails with EROFS (or whatever
 * the disk says).
 */
export function makeFolders(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let missing = folder;
    while (!statSync(path.dirname(missing), { throwIfNoEntry: false }) && path.dirname(missing) !== missing) missing = path.dirname(missing);
    mkdirSync(missing);
    throw error;
  }
}

/**
 * Removes a file of a folder felt owns (a release being made); gone already is fine: a file in it may have been
 * removed by hand, or never made.
 */
export function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Makes way for a file about to be written into a release being made (never a served one). A file only this
 * release holds (one link) is written over where it is: no inode freed and another taken, which on this project's
 * journal-less ext4 makes every new inode after a mass of freed ones slower (ialloc.c, recently_deleted). A hard
 * link the file shares with another release goes first, so that the other keeps its bytes (files are replaced,
 * never written into, where another release can see them); so do a symbolic link (writing would follow it) and a
 * folder where the file goes (a felt of other templates laid its files out so).
 */
export function makeWayForFile(file: string): void {
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (!info || (info.isFile() && info.nlink === 1)) return;
  if (info.isDirectory()) rmSync(file, { recursive: true, force: true });
  else removeFile(file);
}

/**
 * makeFolders in a release being made, where a file (or a link that leads to no folder) may stand where a folder
 * goes: each is removed, from the release's root down, and the folders made. Anything else that fails is thrown as
 * makeFolders throws it. A link to a folder is followed, as everywhere a build writes: felt makes none in a release,
 * and only a hand in dist.releases/ could put one there.
 */
export function makeFoldersOver(folder: string, root: string): void {
  try {
    makeFolders(folder);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTDIR' && code !== 'EEXIST') throw error;
  }
  let at = root;
  for (const part of path.relative(root, folder).split(path.sep)) {
    at = path.join(at, part);
    if (!isInside(at, root)) break;
    const info = lstatSync(at, { throwIfNoEntry: false });
    if (!info) break;
    if (info.isDirectory()) continue;
    try {
      removeFile(at);
    } catch (error) {
      // Another thread writing into this release (a render worker, the writer) made it the folder meanwhile.
      if (!lstatSync(at, { throwIfNoEntry: false })?.isDirectory()) throw error;
    }
  }
  makeFolders(folder);
}
