/**
 * The build writes into a staging folder and swaps it into place at the
 * end: a failed or killed build never leaves a half-written dist/ behind.
 */
import { mkdir, rename, rm } from 'node:fs/promises';

/** A fresh staging folder next to `outDir` (same disk, so the final rename is atomic). */
export async function createStaging(outDir: string): Promise<string> {
  const staging = `${outDir}.staging-${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  return staging;
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
