/**
 * The build writes into a staging folder and swaps it into place at the
 * end: a failed or killed build never leaves a half-written dist/ behind.
 */
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** A fresh staging folder next to `outDir` (same disk, so the final rename is atomic). */
export async function createStaging(outDir: string): Promise<string> {
  const staging = `${outDir}.staging-${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  return staging;
}

/**
 * A build killed between the two renames of swapIntoPlace leaves no outDir,
 * only outDir.previous-*: put the previous site back before anything else.
 */
export async function recoverSwap(outDir: string): Promise<void> {
  if (await stat(outDir).then(() => true, () => false)) return;
  const base = path.basename(outDir);
  const previous = (await readdir(path.dirname(outDir)).catch(() => [] as string[])).filter((name) => name.startsWith(`${base}.previous-`)).sort();
  const newest = previous[previous.length - 1];
  if (newest) await rename(path.join(path.dirname(outDir), newest), outDir);
}

/** Replaces outDir with the finished staging folder. */
export async function swapIntoPlace(staging: string, outDir: string): Promise<void> {
  const previous = `${outDir}.previous-${process.pid}-${Date.now()}`;
  let moved = false;
  try {
    await rename(outDir, previous);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rename(staging, outDir);
  if (moved) await rm(previous, { recursive: true, force: true });
}
