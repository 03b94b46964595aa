/**
 * Renders pages on every core: page specs go in batches to worker threads,
 * which render and write them, and the calling thread renders a batch itself
 * whenever every worker has work queued (it has React and markdown-it loaded
 * already, and would otherwise wait): `threads` counts it, so on two cores
 * one worker starts, not two. Where the compiled worker is not available
 * (tests running the TypeScript sources) or one thread is asked for, pages
 * are rendered on the calling thread with the same code, and in a build that
 * writes every page a writer thread writes their files (threadSink.ts).
 */
import type { Worker } from 'node:worker_threads';
import type { PageSpec } from '../pages/types.ts';
import { FileSink, type OutputSink, type SinkFolder } from './fileSink.ts';
import { writeBatch } from './renderBatch.ts';
import type { DrawnCover } from '../pictures/drawnCovers.ts';
import { createPageRenderer, type RenderSetup } from '../render/pageRenderer.ts';
import { deserializeError, type SerializedError } from './workerErrors.ts';
import { ThreadSink } from './threadSink.ts';
import { defaultThreads, limitHeapGrowth, newRenderWorker, takeStartedWorker, workerCount, workerScript, writerScript } from './renderWorkers.ts';
import type { WorkerMessage } from './renderWorker.ts';

export { defaultThreads };

const BATCH = 32;
const IN_FLIGHT_PER_WORKER = 4;
/** Pages this thread renders between two turns of its event loop while work on libuv's threads is under way. */
const BUSY_STEP = 4;
/** SVG covers drawn with each batch: about a page's time (70 µs each against 0.8 ms a page), so batches stay even. */
const COVERS_PER_BATCH = 32;

export interface RenderPool {
  render(spec: PageSpec): Promise<void>;
  /** Waits for every page to be written, then stops the workers. */
  finish(): Promise<void>;
  /** Threads rendering: the workers, and this one beside them. */
  readonly threads: number;
}

export interface PoolOptions {
  /** Most threads rendering, this one included (default: one per core); 1 renders on this thread. */
  threads?: number;
  /**
   * While this says true, this thread renders a few pages at a time between
   * turns of its event loop: it has work under way on libuv's threads (the
   * build's share cards), every step of which waits for a turn.
   */
  busy?: () => boolean;
  /** SVG covers to draw (site/pictures/svgCover.ts), a few with each batch of pages, the rest once the pages are out. */
  covers?: DrawnCover[];
  /**
   * Work for this thread to do once while the workers render (the build's
   * search index): run as soon as `pagesAhead` pages are queued for them,
   * else once the last page has gone out. Until then this thread renders
   * nothing itself, so that the queue builds up.
   */
  beside?: BesideTask;
  /**
   * When this thread renders alone into a folder, a writer thread writes its files (threadSink.ts): a build that
   * writes every page's files, where the kernel's share of writing a page is about that of rendering it. Not for
   * a rebuild's few pages, which a thread would cost more to start than it saves.
   */
  writeBeside?: boolean;
}

export interface BesideTask {
  run: () => void;
  pagesAhead: number;
}

/** Render into a folder (on workers where they can run) or into a sink on this thread. */
export type PoolOutput = SinkFolder | { sink: OutputSink };

export function createRenderPool(setup: RenderSetup, output: PoolOutput, options: PoolOptions = {}): RenderPool {
  limitHeapGrowth();
  const covers = options.covers ?? [];
  const beside = options.beside;
  if ('sink' in output) return inlinePool(setup, output.sink, covers, beside);
  const folder: SinkFolder = output;
  const script = workerScript();
  const threads = options.threads ?? defaultThreads();
  if (!script || threads <= 1) {
    const writer = options.writeBeside ? writerScript() : undefined;
    return inlinePool(setup, writer ? new ThreadSink(writer, folder) : new FileSink(folder), covers, beside);
  }
  return workerPool(script, setup, folder, { workers: workerCount(threads), busy: options.busy }, covers, beside);
}

function inlinePool(setup: RenderSetup, sink: OutputSink, covers: DrawnCover[], beside: BesideTask | undefined): RenderPool {
  const render = createPageRenderer(setup);
  return {
    threads: 1,
    async render(spec) {
      writeBatch({ pages: [spec], covers: covers.splice(0, 1) }, render, sink);
    },
    async finish() {
      try {
        writeBatch({ pages: [], covers: covers.splice(0) }, render, sink);
        beside?.run();
      } finally {
        await sink.close?.();
      }
    },
  };
}

interface Slot {
  worker: Worker;
  inFlight: number;
}

function workerPool(
  script: string,
  setup: RenderSetup,
  folder: SinkFolder,
  sizes: { workers: number; busy?: () => boolean },
  covers: DrawnCover[],
  besideTask: BesideTask | undefined,
): RenderPool {
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const spawn = (): Slot => {
    // A worker started ahead (renderWorkers.ts) has loaded its modules by now; either way it gets the setup first.
    const slot: Slot = { worker: takeStartedWorker() ?? newRenderWorker(script), inFlight: 0 };
    slot.worker.postMessage({ setup, folder } satisfies WorkerMessage);
    slot.worker.on('message', (message: { done?: number; error?: SerializedError }) => {
      slot.inFlight--;
      if (message.error) failure ??= deserializeError(message.error);
      notify();
    });
    slot.worker.on('error', (error) => {
      failure ??= error;
      notify();
    });
    // A worker that stops with no error event would leave finish() waiting for its answers for ever (after finish()
    // terminates the workers, this changes nothing: the pool is done).
    slot.worker.on('exit', (code) => {
      failure ??= new Error(`a render worker stopped (exit code ${code}) before it had rendered every page`);
      notify();
    });
    return slot;
  };
  const slots: Slot[] = Array.from({ length: sizes.workers }, spawn);
  let batch: PageSpec[] = [];
  let here: { render: ReturnType<typeof createPageRenderer>; sink: FileSink } | undefined;
  const renderHere = (pages: PageSpec[]) => {
    here ??= { render: createPageRenderer(setup), sink: new FileSink(folder) };
    writeBatch({ pages, covers: covers.splice(0, Math.ceil((COVERS_PER_BATCH * pages.length) / BATCH)) }, here.render, here.sink);
  };

  const waitForRoom = async (limit: number) => {
    while (!failure && slots.every((s) => s.inFlight >= limit)) await new Promise<void>((resolve) => (wake = resolve));
    if (failure) throw failure;
  };

  let beside = besideTask;
  const runBeside = () => {
    const task = beside;
    beside = undefined;
    task?.run();
  };

  const dispatch = async () => {
    if (batch.length === 0 && covers.length === 0) return;
    if (failure) throw failure;
    if (beside) {
      // Batches queue up until the workers have enough to render while this thread does the work beside;
      // then the workers' messages are heard, and this batch joins their queue.
      const ahead = Math.ceil(beside.pagesAhead / BATCH / slots.length);
      if (slots.every((s) => s.inFlight >= ahead)) {
        runBeside();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } else {
      if (slots.every((s) => s.inFlight >= IN_FLIGHT_PER_WORKER)) {
        // Every worker has its next batch waiting: this one is rendered here rather than waited for. Then the
        // workers' messages are heard (the build's loop only awaits promises, which never let them in). While
        // work is under way on libuv's threads (busy), a few pages at a time: each of its steps waits for a turn
        // of this thread's event loop, and a whole batch between two turns held the share cards up for seconds.
        const step = sizes.busy?.() ? BUSY_STEP : batch.length;
        for (let i = 0; i < batch.length; i += step) {
          renderHere(batch.slice(i, i + step));
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        batch = [];
        return;
      }
      await waitForRoom(IN_FLIGHT_PER_WORKER);
    }
    const slot = slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    slot.inFlight++;
    slot.worker.postMessage({ pages: batch, covers: covers.splice(0, COVERS_PER_BATCH) } satisfies WorkerMessage);
    batch = [];
  };

  return {
    // This thread renders beside the workers.
    threads: slots.length + 1,
    async render(spec) {
      if (failure) throw failure;
      batch.push(spec);
      // A full batch goes out; so does a partial one when a worker would otherwise sit idle.
      if (batch.length >= BATCH || slots.some((s) => s.inFlight === 0)) await dispatch();
    },
    async finish() {
      try {
        // The pages left, then the covers no batch took, shared out as batches of their own.
        do await dispatch();
        while (covers.length > 0 && !failure);
        if (!failure) runBeside();
        while (!failure && slots.some((s) => s.inFlight > 0)) await new Promise<void>((resolve) => (wake = resolve));
        if (failure) throw failure;
      } finally {
        await Promise.all(slots.map((s) => s.worker.terminate()));
      }
    },
  };
}
