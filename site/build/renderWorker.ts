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
import type { ContentLocale } from '../../shared/types.ts';
import type { FileOutcome, UnreadArticle } from '../content/parseFiles.ts';

/** What the pool sends: the setup once, then batches of pages, each with a few SVG covers to draw (renderPool.ts). */
export type WorkerMessage = { setup: RenderSetup; folder: SinkFolder } | RenderBatch | ParseRequest;

/** Before its setup, a worker started ahead may parse a share of the articles the build is loading (parseFiles.ts). */
export interface ParseRequest {
  parse: { locale: ContentLocale; files: UnreadArticle[]; claims: Int32Array };
}

/** What a worker sends back while it parses: what it parsed, by file index, a batch at a time; the last says so. */
export type ParseReply = { parsed: [number, FileOutcome][]; last: boolean } | { parseFailed: string };

/** Outcomes sent back at a time: each message costs a turn of the build thread's event loop. */
const PARSED_PER_MESSAGE = 256;

let job: { render: ReturnType<typeof createPageRenderer>; sink: FileSink; outDir: string } | undefined;

parentPort!.on('message', (message: WorkerMessage) => {
  if ('parse' in message) {
    void parseShare(message.parse);
    return;
  }
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

/** Parses what it can take of the files (modules loaded on the first request: most builds never ask). */
async function parseShare({ locale, files, claims }: ParseRequest['parse']): Promise<void> {
  const reply = (message: ParseReply) => parentPort!.postMessage(message);
  try {
    const { claimFiles } = await import('../content/parseFiles.ts');
    let parsed: [number, FileOutcome][] = [];
    await claimFiles(files, locale, claims, (index, outcome) => {
      parsed.push([index, outcome]);
      if (parsed.length < PARSED_PER_MESSAGE) return;
      reply({ parsed, last: false });
      parsed = [];
    });
    reply({ parsed, last: true });
  } catch (error) {
    reply({ parseFailed: String((error as Error)?.stack ?? error) });
  }
}
