/**
 * Issue 13: a build reads its content files with synchronous calls
 * (shared/inputFile.ts, readInspected), not through libuv's thread pool,
 * which a cold build shares with sharp's rasters and the image cache's
 * fsyncs: each read through FileHandle was four round trips through that
 * pool. So a read gets its bytes even while every thread of the pool is
 * held: here by FIFOs opened for reading, which wait for a writer.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInspected } from '../../shared/inputFile.ts';
import { tempDir } from '../site/helpers.ts';

describe('reading an input file', () => {
  it('gets its bytes while every thread of the pool is busy', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'article.md');
    writeFileSync(file, '---\ntitle: A\n---\nBody.\n');
    // Each open of a FIFO without a writer holds one of the pool's threads until a writer comes.
    const poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4;
    const fifos = Array.from({ length: poolSize }, (_, i) => path.join(dir, `fifo-${i}`));
    execFileSync('mkfifo', fifos);
    const held = fifos.map((fifo) => open(fifo, 'r'));
    try {
      const read = await Promise.race([
        readInspected(file, 24, 1024),
        new Promise<'waited for the pool'>((resolve) => setTimeout(() => resolve('waited for the pool'), 2000)),
      ]);
      expect(read).toEqual({ kind: 'read', bytes: Buffer.from('---\ntitle: A\n---\nBody.\n') });
    } finally {
      // A writer for each FIFO lets its open finish: the pool is free again.
      const writers = fifos.map((fifo) => openSync(fifo, 'w'));
      for (const handle of await Promise.all(held)) await handle.close();
      for (const fd of writers) closeSync(fd);
    }
  });
});
