/**
 * Stage boundaries (issue 11). Where a stage (loading content, writing the
 * site, a storage call) catches what a library or the OS threw, a failure of
 * the machine (a full disk, a refused permission, a read-only file system),
 * or of a path the operator named, becomes a FeltError with the file, the
 * stage and the original kept as `cause`. Anything else is a bug in felt and
 * goes on as it was thrown, stack and all: it must not read as expected.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { FeltError, errorCatalogue } from './errors.ts';
import { CACHE_FOLDER } from './paths.ts';

export interface Stage {
  /** What felt was doing, as a message ends: "… while writing the site". */
  name: string;
  /**
   * The paths this stage touches were named by the operator (the content
   * folder, --out): one that is missing, or a file where a folder belongs,
   * is theirs to fix. Elsewhere such a failure is felt's own bug.
   */
  namedPaths?: boolean;
  /** What to do here when a path is refused or wrong (default: the catalogue's hint). */
  pathHint?: string;
  /** The folder the stage works in (the content folder, --out): named when the system error names no file. */
  path?: string;
}

type MachineCode = 'DISK_FULL' | 'NO_PERMISSION' | 'READ_ONLY' | 'BAD_PATH';

/** The system error codes that say something about the machine or the input, not about felt. */
const SYSTEM_FAILURES: Record<string, { code: MachineCode; says: string; namedPathsOnly?: true }> = {
  ENOSPC: { code: 'DISK_FULL', says: 'no space left on the disk' },
  EDQUOT: { code: 'DISK_FULL', says: 'the disk quota is used up' },
  EACCES: { code: 'NO_PERMISSION', says: 'permission denied' },
  EPERM: { code: 'NO_PERMISSION', says: 'operation not permitted' },
  EROFS: { code: 'READ_ONLY', says: 'the file system is read-only' },
  ENOENT: { code: 'BAD_PATH', says: 'no such file or folder', namedPathsOnly: true },
  ENOTDIR: { code: 'BAD_PATH', says: 'found a file where a folder should be', namedPathsOnly: true },
  EISDIR: { code: 'BAD_PATH', says: 'found a folder where a file should be', namedPathsOnly: true },
};

/**
 * The FeltError a system failure stands for, or undefined when `error` is
 * not one (a FeltError already, or a bug). Without a stage (the CLI's last
 * resort) only the machine's failures qualify.
 */
export function environmentError(error: unknown, stage?: Stage): FeltError | undefined {
  if (error instanceof FeltError || !(error instanceof Error)) return undefined;
  const { code, path: file } = error as NodeJS.ErrnoException;
  const failure = code ? SYSTEM_FAILURES[code] : undefined;
  if (!failure || (failure.namedPathsOnly && !stage?.namedPaths)) return undefined;
  // A full or read-only disk is fixed on the disk, not by the stage's path advice (who owns the folder). A refused file
  // of felt's cache is fixed there too, whatever the stage (another user's build left it: a build run with sudo).
  const inCache = failure.code === 'NO_PERMISSION' && file !== undefined && file.split(path.sep).includes(CACHE_FOLDER) && ownedByAnother(file);
  const hint =
    failure.code === 'DISK_FULL' || failure.code === 'READ_ONLY'
      ? undefined
      : inCache
        ? `felt's cache belongs to another user (a build run with sudo?): give it back (chown -R) or remove ${CACHE_FOLDER}/, which felt makes again`
        : stage?.pathHint;
  return new FeltError(failure.code, errorCatalogue[failure.code].message(failure.says, stage?.name), {
    file: file ?? stage?.path,
    hint,
    stage: stage?.name,
    cause: error,
  });
}

/**
 * Whether the nearest existing part of `file`'s path is in felt's cache folder (or is it) and belongs to another
 * user than this process's: false where the cache folder does not exist yet (its parent refused it).
 */
function ownedByAnother(file: string): boolean {
  const me = process.getuid?.();
  if (me === undefined) return false;
  for (let at = file; path.dirname(at) !== at; at = path.dirname(at)) {
    const info = statSync(at, { throwIfNoEntry: false });
    if (info) return info.uid !== me && at.split(path.sep).includes(CACHE_FOLDER);
  }
  return false;
}

/** Runs one stage: what the machine refuses comes out as a FeltError naming the file and the stage. */
export async function duringStage<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw environmentError(error, stage) ?? error;
  }
}
