/**
 * Renders pages on every core: page specs go in batches to worker threads,
 * which render and write them. Where the compiled worker is not available
 * (tests running the TypeScript sources) or one thread is asked for, pages
 * are rendered on the calling thread with the same code.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageSpec } from '../pages/types.ts';
import { FileSink } from './fileSink.ts';
import { createPageRenderer, type RenderSetup } from './pageRenderer.ts';
import { deserializeError, type SerializedError } from './workerErrors.ts';

const BATCH = 32;
const IN_FLIGHT_PER_WORKER = 2;

export interface RenderPool {
  render(spec: PageSpec): Promise<void>;
  /** Waits for every page to be written, then stops the workers. */
  finish(): Promise<void>;
  readonly threads: number;
}

export function defaultThreads(): number {
  return Math.max(1, Math.min(8, os.availableParallelism()));
}

function workerScript(): string | undefined {
  const script = fileURLToPath(new URL('./render-worker.js', import.meta.url));
  return existsSync(script) ? script : undefined;
}

export function createRenderPool(setup: RenderSetup, outDir: string, threads = defaultThreads()): RenderPool {
  const script = workerScript();
  return script && threads > 1 ? workerPool(script, setup, outDir, threads) : inlinePool(setup, outDir);
}

function inlinePool(setup: RenderSetup, outDir: string): RenderPool {
  const render = createPageRenderer(setup);
  const sink = new FileSink(outDir);
  return {
    threads: 1,
    async render(spec) {
      for (const file of render(spec)) sink.write(file.path, file.content);
    },
    async finish() {},
  };
}

interface Slot {
  worker: Worker;
  inFlight: number;
}

function workerPool(script: string, setup: RenderSetup, outDir: string, threads: number): RenderPool {
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const slots: Slot[] = Array.from({ length: threads }, () => {
    const slot: Slot = { worker: new Worker(script, { workerData: { setup, outDir } }), inFlight: 0 };
    slot.worker.on('message', (message: { done?: number; error?: SerializedError }) => {
      slot.inFlight--;
      if (message.error) failure ??= deserializeError(message.error);
      notify();
    });
    slot.worker.on('error', (error) => {
      failure ??= error;
      notify();
    });
    return slot;
  });
  let batch: PageSpec[] = [];

  const waitForRoom = async (limit: number) => {
    while (!failure && slots.every((s) => s.inFlight >= limit)) await new Promise<void>((resolve) => (wake = resolve));
    if (failure) throw failure;
  };

  const dispatch = async () => {
    if (batch.length === 0) return;
    await waitForRoom(IN_FLIGHT_PER_WORKER);
    const slot = slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    slot.inFlight++;
    slot.worker.postMessage(batch);
    batch = [];
  };

  return {
    threads,
    async render(spec) {
      if (failure) throw failure;
      batch.push(spec);
      if (batch.length >= BATCH) await dispatch();
    },
    async finish() {
      try {
        await dispatch();
        while (!failure && slots.some((s) => s.inFlight > 0)) await new Promise<void>((resolve) => (wake = resolve));
        if (failure) throw failure;
      } finally {
        await Promise.all(slots.map((s) => s.worker.terminate()));
      }
    },
  };
}
