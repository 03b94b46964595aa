/**
 * A render worker: receives the RenderSetup and its output folder first,
 * then batches of page specs; renders each and writes its files into the
 * staging folder. It may start before the build has a setup
 * (renderWorkers.ts): its modules load meanwhile, and the setup comes as
 * the first message.
 */
import { parentPort } from 'node:worker_threads';
import { FileSink, type SinkFolder } from './fileSink.ts';
import { writeBatch, type RenderBatch } from './renderBatch.ts';
import { createPageRenderer, type RenderSetup } from '../render/pageRenderer.ts';
import { serializeError } from './workerErrors.ts';
import { writingSite } from './stages.ts';
import { environmentError } from '../../shared/stageErrors.ts';

/** What the pool sends: the setup once, then batches of pages, each with a few SVG covers to draw (renderPool.ts). */
export type WorkerMessage = { setup: RenderSetup; folder: SinkFolder } | RenderBatch;

let job: { render: ReturnType<typeof createPageRenderer>; sink: FileSink; outDir: string } | undefined;

parentPort!.on('message', (message: WorkerMessage) => {
  if ('setup' in message) {
    job = { render: createPageRenderer(message.setup), sink: new FileSink(message.folder), outDir: message.folder.dir };
    return;
  }
  const { render, sink, outDir } = job!;
  try {
    writeBatch(message, render, sink);
    parentPort!.postMessage({ done: message.pages.length });
  } catch (error) {
    // A full disk is said here: past postMessage, the system error's code is gone.
    parentPort!.postMessage({ error: serializeError(environmentError(error, writingSite(outDir)) ?? error) });
  }
});
