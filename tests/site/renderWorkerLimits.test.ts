/**
 * Issue 13: a render worker's heap is limited (site/build/renderWorkers.ts,
 * newRenderWorker). Under the process's default limit V8 let a worker that
 * holds 30 MB grow to 130 MB between full collections in a cold
 * 100,000-article build; under 512 MB it grows by at most 1.4 times.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { newRenderWorker } from '../../site/build/renderWorkers.ts';
import { tempDir } from './helpers.ts';

describe('a render worker', () => {
  it('runs under a heap limit of its own, well below the process default', async () => {
    const script = path.join(await tempDir(), 'limit.mjs');
    await writeFile(
      script,
      "import { parentPort } from 'node:worker_threads'; import v8 from 'node:v8'; parentPort.postMessage(v8.getHeapStatistics().heap_size_limit);",
    );
    const worker = newRenderWorker(script);
    const [limit] = (await once(worker, 'message')) as [number];
    await worker.terminate();
    expect(limit / 2 ** 20).toBeLessThan(700);
  });
});
