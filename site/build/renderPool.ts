/**
 * Renders pages on every core: page specs go in batches to worker threads,
 * which render and write them. Where the compiled worker is not available
 * (tests running the TypeScript sources) or one thread is asked for, pages
 * are rendered on the calling thread with the same code.
 */
import { Worker } from 'node:worker_threads';
import type { PageSpec } from '../pages/types.ts';
import { FileSink, type OutputSink } from './fileSink.ts';
import { createPageRenderer, type RenderSetup } from '../render/pageRenderer.ts';
import { deserializeError, type SerializedError } from './workerErrors.ts';
import { defaultThreads, takeStartedWorker, workerScript } from './renderWorkers.ts';
import type { WorkerMessage } from './renderWorker.ts';

export { defaultThreads };

const BATCH = 32;
const IN_FLIGHT_PER_WORKER = 2;

export interface RenderPool {
  render(spec: PageSpec): Promise<void>;
  /** Waits for every page to be written, then stops the workers. */
  finish(): Promise<void>;
  readonly threads: number;
}

export interface PoolOptions {
  /** Most worker threads (default: one per core); 1 renders on the calling thread unless `startWith` says otherwise. */
  threads?: number;
  /**
   * Start with this many workers and add the others only once `growAfter`
   * pages have been asked for: a rebuild that changes a few pages of a big
   * site renders them on one worker while the main thread works out the rest.
   */
  startWith?: number;
  growAfter?: number;
}

/** Render into a folder (on workers where they can run) or into a sink on this thread. */
export type PoolOutput = { dir: string } | { sink: OutputSink };

export function createRenderPool(setup: RenderSetup, output: PoolOutput, options: PoolOptions = {}): RenderPool {
  if ('sink' in output) return inlinePool(setup, output.sink);
  const outDir = output.dir;
  const script = workerScript();
  const threads = options.threads ?? defaultThreads();
  const startWith = Math.min(threads, options.startWith ?? threads);
  if (!script || (threads <= 1 && options.startWith === undefined)) return inlinePool(setup, new FileSink(outDir));
  return workerPool(script, setup, outDir, { threads: Math.max(1, threads), startWith: Math.max(1, startWith), growAfter: options.growAfter ?? 0 });
}

function inlinePool(setup: RenderSetup, sink: OutputSink): RenderPool {
  const render = createPageRenderer(setup);
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

function workerPool(script: string, setup: RenderSetup, outDir: string, sizes: { threads: number; startWith: number; growAfter: number }): RenderPool {
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const spawn = (): Slot => {
    // A worker started ahead (renderWorkers.ts) has loaded its modules by now; either way it gets the setup first.
    const slot: Slot = { worker: takeStartedWorker() ?? new Worker(script), inFlight: 0 };
    slot.worker.postMessage({ setup, outDir } satisfies WorkerMessage);
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
  };
  const slots: Slot[] = Array.from({ length: sizes.startWith }, spawn);
  let asked = 0;
  let batch: PageSpec[] = [];

  const waitForRoom = async (limit: number) => {
    while (!failure && slots.every((s) => s.inFlight >= limit)) await new Promise<void>((resolve) => (wake = resolve));
    if (failure) throw failure;
  };

  const dispatch = async () => {
    if (batch.length === 0) return;
    while (slots.length < sizes.threads && asked >= sizes.growAfter) slots.push(spawn());
    // Until a pool has grown, what it is asked for (at most growAfter pages)
    // queues without waiting: the main thread keeps deciding what changed
    // while its first worker starts up.
    if (slots.length === sizes.threads || asked > sizes.growAfter) await waitForRoom(IN_FLIGHT_PER_WORKER);
    const slot = slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    slot.inFlight++;
    slot.worker.postMessage(batch satisfies WorkerMessage);
    batch = [];
  };

  return {
    get threads() {
      return slots.length;
    },
    async render(spec) {
      if (failure) throw failure;
      asked++;
      batch.push(spec);
      // A full batch goes out; so does a partial one when a worker would otherwise sit idle.
      if (batch.length >= BATCH || slots.some((s) => s.inFlight === 0)) await dispatch();
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
