/**
 * An OutputSink that hands files to a writer thread (writeWorker.ts) in
 * batches. Its write() stays synchronous, as a render thread's is: it returns
 * as soon as the file is queued, and waits (Atomics.wait) only when
 * MAX_BATCHES_AHEAD batches are not written yet, so that a renderer faster
 * than the disk holds a few MB, not the site. A failed write is thrown by the
 * next write() or by close(), with the writer's message.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { OutputSink, SinkFolder } from './fileSink.ts';
import type { DrawnCover } from '../pictures/drawnCovers.ts';
import { deserializeError, type SerializedError } from './workerErrors.ts';

/** What the writer thread starts with. */
export interface WriterData {
  folder: SinkFolder;
  /** Two Int32 counters: WRITTEN batches, and FAILED (1 once a write failed, its error posted on `errors`). */
  progress: SharedArrayBuffer;
  errors: MessagePort;
}

/**
 * Files as two arrays: one structured clone of two arrays is cheaper than one of an object per file. Then the SVG
 * covers for the writer to draw (a few subject fields each, against an SVG of several KB), so that drawing them
 * (90 µs each, a cover per article at 1,000 articles) leaves the thread that renders, which a small site's build
 * waits for, for the other core, which draws the share cards and writes.
 */
export interface WriterBatch {
  paths: string[];
  contents: (string | Uint8Array)[];
  covers: DrawnCover[];
}

export const WRITTEN = 0;
export const FAILED = 1;
/** Asks the writer to answer once everything sent before is written. */
export const FLUSH = 'flush';

/** A batch goes to the writer at this many files or this many UTF-16 units, whichever comes first. */
const BATCH_FILES = 32;
const BATCH_UNITS = 1 << 20;
/** Batches handed over and not written yet before write() waits: at most a few MB held. */
const MAX_BATCHES_AHEAD = 4;
/** A writer that has written nothing for this long while the build waits is taken for dead (its thread ran out of memory). */
const STALL_MS = 60_000;

export class ThreadSink implements OutputSink {
  private readonly worker: Worker;
  private readonly counters: Int32Array;
  private readonly errors: MessagePort;
  private batch: WriterBatch = { paths: [], contents: [], covers: [] };
  private units = 0;
  private sent = 0;
  private failure: Error | undefined;

  constructor(script: string, folder: SinkFolder) {
    const progress = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    this.counters = new Int32Array(progress);
    const { port1, port2 } = new MessageChannel();
    this.errors = port1;
    this.worker = new Worker(script, { workerData: { folder, progress, errors: port2 } satisfies WriterData, transferList: [port2] });
    this.worker.on('error', (error) => (this.failure ??= error));
    // A writer that stops on its own (process.exit, a crash with no error event) is noticed here: close() would
    // otherwise register for an 'exit' that has already been emitted, and wait for ever.
    this.worker.on('exit', (code) => (this.failure ??= new Error(`the writer thread stopped (exit code ${code}) before it had written every file`)));
  }

  write(relative: string, content: string | Uint8Array): void {
    this.throwIfFailed();
    this.batch.paths.push(relative);
    this.batch.contents.push(content);
    this.units += content.length;
    this.sendWhenFull();
  }

  drawCovers(covers: readonly DrawnCover[]): void {
    this.throwIfFailed();
    // One at a time, as files are: the covers left at the end come all at once, and a batch stays BATCH_FILES long.
    for (const cover of covers) {
      this.batch.covers.push(cover);
      this.sendWhenFull();
    }
  }

  /** Hands over what is queued, waits until the writer has written it all, and stops the writer. */
  async close(): Promise<void> {
    try {
      if (this.batch.paths.length + this.batch.covers.length > 0) this.send();
      this.throwIfFailed();
      // The writer takes its messages in order: its answer to FLUSH comes after every batch before it is written.
      await new Promise<void>((resolve, reject) => {
        this.worker.once('message', () => resolve());
        this.worker.once('error', reject);
        this.worker.once('exit', () => reject(new Error('the writer thread stopped before it had written every file')));
        this.worker.postMessage(FLUSH);
      });
      this.throwIfFailed();
    } finally {
      this.errors.close();
      await this.worker.terminate();
    }
  }

  private sendWhenFull(): void {
    if (this.batch.paths.length + this.batch.covers.length >= BATCH_FILES || this.units >= BATCH_UNITS) this.send();
  }

  private send(): void {
    let since = Date.now();
    for (let written = Atomics.load(this.counters, WRITTEN); this.sent - written >= MAX_BATCHES_AHEAD; written = Atomics.load(this.counters, WRITTEN)) {
      this.throwIfFailed();
      if (Atomics.wait(this.counters, WRITTEN, written, 1000) !== 'timed-out') since = Date.now();
      else if (Date.now() - since > STALL_MS) throw new Error(`the writer thread wrote nothing for ${STALL_MS / 1000} s`);
    }
    this.worker.postMessage(this.batch);
    this.sent++;
    this.batch = { paths: [], contents: [], covers: [] };
    this.units = 0;
  }

  private throwIfFailed(): void {
    if (!this.failure && Atomics.load(this.counters, FAILED) !== 0) {
      // Read synchronously: this thread may be rendering or waiting, its event loop not turning.
      const message = receiveMessageOnPort(this.errors)?.message as SerializedError | undefined;
      this.failure = message ? deserializeError(message) : new Error('writing the site failed on the writer thread');
    }
    if (this.failure) throw this.failure;
  }
}
