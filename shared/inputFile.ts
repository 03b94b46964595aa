/**
 * How felt reads an input file (an article, an info page, a settings file,
 * ads.json): before a byte is read, what is at the path must be a regular
 * file inside the content folder and no larger than its limit
 * (shared/limits.ts). A folder, a FIFO (reading one waits for a writer that
 * never comes), a socket, a device, a symbolic link out of the content
 * folder or a file over its limit is a problem with that file, one line,
 * never a crash, a hang or a file read whole into memory. The read itself
 * stops at the limit, should the file grow after it was looked at.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isInside } from './insideFolder.ts';
import { LIMIT_HINT, tooLarge } from './limits.ts';

export interface InputLimits {
  /** Files larger than this are refused unread. */
  maxBytes: number;
  /** The content folder: a symbolic link may point anywhere inside it, and nowhere else. */
  root: string;
}

/** Why a file is not read: it is not there, or it is there and refused (the message follows the file's name). */
export type InputRefusal = { kind: 'missing' } | { kind: 'refused'; message: string; hint: string };

export type InputCheck = { kind: 'file'; size: number; mtimeMs: number } | InputRefusal;

export type InputRead = { kind: 'read'; bytes: Buffer } | InputRefusal;

const refused = (message: string, hint: string): InputRefusal => ({ kind: 'refused', message, hint });

const OUTSIDE_HINT = 'copy the file into the content folder instead of linking to it';
const NOT_A_FILE_HINT = 'remove it or move it out of the content folder';

/** What is at a path, when it is not a regular file: "a folder", "a named pipe (FIFO)", … */
function notAFile(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const realRoots = new Map<string, string>();

function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch {
      real = path.resolve(root);
    }
    realRoots.set(root, real);
  }
  return real;
}

/**
 * The real place of a folder of the content folder (articles/en_US,
 * pages/en) when a symbolic link takes it outside; undefined when it is
 * inside, or absent. Checked once per folder, so the files in it cost one
 * lstat each.
 */
export function folderOutside(folder: string, root: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch {
    return undefined;
  }
  return isInside(real, realRoot(root)) ? undefined : real;
}

/** What is at `file`, without reading it: a file of this size, nothing, or something refused. */
export function inspectInput(file: string, { maxBytes, root }: InputLimits): InputCheck {
  let info: Stats;
  try {
    info = lstatSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return refused(`cannot be read: ${(error as Error).message}`, 'check who owns the file and its folder');
  }
  if (info.isSymbolicLink()) {
    let target: string;
    try {
      target = realpathSync(file);
      info = statSync(target);
    } catch {
      return refused('is a symbolic link to nothing that exists', 'remove the link, or make it point at a file in the content folder');
    }
    if (!isInside(target, realRoot(root))) return refused(`is a symbolic link to ${target}, outside the content folder`, OUTSIDE_HINT);
  }
  const shape = notAFile(info);
  if (shape) return refused(`is ${shape}, not a file`, NOT_A_FILE_HINT);
  if (info.size > maxBytes) return refused(`file ${tooLarge(info.size, maxBytes)}`, LIMIT_HINT);
  return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs };
}

/** The bytes of `file`, when inspectInput accepts it. */
export async function readInput(file: string, limits: InputLimits): Promise<InputRead> {
  const checked = inspectInput(file, limits);
  return checked.kind === 'file' ? readInspected(file, checked.size, limits.maxBytes) : checked;
}

// O_NONBLOCK: a path that became a FIFO since it was inspected answers at once instead of waiting for a writer.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The bytes of a file inspectInput accepted with `size` bytes: at most
 * `maxBytes`, however much it holds by now (one more byte is read to notice
 * that it grew past the limit).
 *
 * Read with synchronous calls: content files are small and, when a build
 * reads them, nearly always in the page cache (just written by git, a pull
 * or an editor). Through FileHandle each file cost four thread-pool round
 * trips and their promises: reading the bench's 1,000 articles took 85 ms of
 * CPU that way (64 at a time) and 16 ms this way, on the build's thread,
 * while its render worker waits for the first pages.
 */
export async function readInspected(file: string, size: number, maxBytes: number): Promise<InputRead> {
  try {
    const fd = openSync(file, READ_FLAGS);
    try {
      let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
      let length = 0;
      for (;;) {
        if (length === buffer.length) {
          if (length > maxBytes) return refused(`file ${tooLarge(fstatSync(fd).size, maxBytes)}`, LIMIT_HINT);
          const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
          buffer.copy(larger, 0, 0, length);
          buffer = larger;
        }
        const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
        if (bytesRead === 0) return { kind: 'read', bytes: buffer.subarray(0, length) };
        length += bytesRead;
      }
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Deleted between the look and the read: as if it had never been there.
    if (code === 'ENOENT') return { kind: 'missing' };
    return refused(`cannot be read: ${(error as Error).message}`, 'check who owns the file and its folder');
  }
}
