/**
 * The one way felt replaces a file in place: a reader sees either the old
 * content or the new one, never half of it. The data goes to a temporary file
 * in the same folder, is flushed to disk, and is renamed over the target
 * (rename is atomic on one file system). A crash leaves at most a stray
 * ".felt-tmp-" file, never a torn one; a failed write leaves nothing.
 *
 * Two variants, one behaviour: async for the CLI's I/O, sync for the code
 * that writes synchronously on purpose (the commit journal, caches written
 * once at the end of a build).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Starts every temporary name, so a pull can clean up what a killed writer left. */
export const TEMP_MARK = '.felt-tmp-';

/**
 * A temporary name next to `file` that no other writer uses: the process id
 * tells processes apart, the random part tells apart writers in one process
 * (concurrent requests, worker threads). It ends in .tmp, not in the target's
 * extension: a process killed before the rename must not leave a stray "….md"
 * that content loading or a pull would take for an article (issue 6).
 */
function temporaryName(file: string): string {
  return path.join(path.dirname(file), `${TEMP_MARK}${process.pid}-${randomBytes(6).toString('hex')}-${path.basename(file)}.tmp`);
}

/**
 * `beforeRename`, when given, runs once the data is safely in the temporary
 * file and before it takes the target's name (it gets the temporary path):
 * whatever it writes exists before the target does.
 */
export async function writeFileAtomic(file: string, data: Uint8Array | string, beforeRename?: (temp: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = temporaryName(file);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (beforeRename) await beforeRename(temp);
    await rename(temp, file);
  } catch (error) {
    // A full disk or a failed rename leaves nothing behind either.
    await rm(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic for synchronous callers. */
export function writeFileAtomicSync(file: string, data: Uint8Array | string | Iterable<string>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = temporaryName(file);
  try {
    const fd = openSync(temp, 'w');
    try {
      // Pieces are written as they come: a large file (the article cache) is never one string in memory.
      if (typeof data === 'string' || data instanceof Uint8Array) writeFileSync(fd, data);
      else for (const piece of data) writeFileSync(fd, piece);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Past this age a temporary file is a leftover whoever wrote it: no write of felt takes minutes, and process ids get reused. */
const LEFTOVER_AFTER_MS = 10 * 60_000;

/** Whether a process with this id runs on this machine (signal 0 only asks; EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files that writers killed mid-write left in `folder`
 * (not below it), and returns their names. A temporary file is a leftover when
 * the process named in it no longer runs (a rerun right after a kill cleans
 * up at once), or when it is older than ten minutes whoever it names (the id
 * may have been given to another process since). A write in progress, by this
 * process or another live one, is younger and left alone.
 */
export async function removeLeftoverTemporaries(folder: string, now = Date.now()): Promise<string[]> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.startsWith(TEMP_MARK) && name.endsWith('.tmp'));
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const pid = Number(name.slice(TEMP_MARK.length).split('-')[0]);
    const orphaned = !Number.isSafeInteger(pid) || pid <= 0 || !isRunning(pid);
    if (!orphaned && now - info.mtimeMs < LEFTOVER_AFTER_MS) continue;
    await rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}
