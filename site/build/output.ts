/**
 * Writes the build's files into a staging folder, a bounded number at a
 * time, and swaps it into place at the end: a failed or killed build never
 * leaves a half-written dist/ behind.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';

export class OutputWriter {
  readonly dir: string;
  readonly files: string[] = [];
  private readonly folders = new Set<string>();
  private readonly limit = pLimit(32);
  private readonly pending = new Set<Promise<void>>();

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Queues a file; waits when too many writes are in flight, so memory stays bounded. */
  async write(relative: string, content: string | Uint8Array): Promise<void> {
    const target = path.join(this.dir, relative);
    if (!target.startsWith(this.dir + path.sep)) throw new Error(`refusing to write outside the output folder: ${relative}`);
    this.files.push(relative);
    const job = this.limit(async () => {
      const folder = path.dirname(target);
      if (!this.folders.has(folder)) {
        await mkdir(folder, { recursive: true });
        this.folders.add(folder);
      }
      await writeFile(target, content);
    });
    const tracked = job.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    if (this.pending.size >= 256) await Promise.race(this.pending);
  }

  async flush(): Promise<void> {
    await Promise.all(this.pending);
  }
}

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
