/**
 * A render worker: receives the RenderSetup once, then batches of page specs;
 * renders each and writes its files into the staging folder.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PageSpec } from '../pages/types.ts';
import { FileSink } from './fileSink.ts';
import { createPageRenderer, type RenderSetup } from '../render/pageRenderer.ts';
import { serializeError } from './workerErrors.ts';
import { writingSite } from './stages.ts';
import { environmentError } from '../../shared/stageErrors.ts';

const { setup, outDir } = workerData as { setup: RenderSetup; outDir: string };
const render = createPageRenderer(setup);
const sink = new FileSink(outDir);

parentPort!.on('message', (batch: PageSpec[]) => {
  try {
    for (const spec of batch) for (const file of render(spec)) sink.write(file.path, file.content);
    parentPort!.postMessage({ done: batch.length });
  } catch (error) {
    // A full disk is said here: past postMessage, the system error's code is gone.
    parentPort!.postMessage({ error: serializeError(environmentError(error, writingSite(outDir)) ?? error) });
  }
});
