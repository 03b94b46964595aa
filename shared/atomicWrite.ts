/**
 * Writes a file so that a reader sees either the old content or the new one,
 * never half of it: the data goes to a temporary file in the same folder,
 * is flushed, and is renamed over the target (rename is atomic on one file
 * system). A crash leaves at most a stray ".felt-tmp" file, never a torn one.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export const TEMP_MARK = '.felt-tmp-';

/**
 * `beforeRename`, when given, runs once the data is safely in the temporary
 * file and before it takes the target's name (it gets the temporary path):
 * whatever it writes exists before the target does.
 */
export async function writeFileAtomic(file: string, data: Buffer | string, beforeRename?: (temp: string) => Promise<void>): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  // The temporary name ends in .tmp, not in the target's extension: a process
  // killed before the rename must not leave a stray "….md" that content
  // loading or a pull would take for an article (issue 6).
  const temp = path.join(dir, `${TEMP_MARK}${randomBytes(6).toString('hex')}-${path.basename(file)}.tmp`);
  const handle = await open(temp, 'w');
  try {
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
