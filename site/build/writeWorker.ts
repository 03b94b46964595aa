/**
 * A writer thread for a build that renders on its own thread: it takes the
 * rendered files in batches (threadSink.ts) and writes them, so that the
 * kernel's share of writing a page (a folder and two or three inodes made on
 * ext4, about as long as rendering it) runs on the other core while the next
 * pages render. It also draws the SVG covers that the renderer hands it
 * (threadSink.ts), with coverArt.ts, pure drawing code: it imports nothing
 * else of the site's, and starts in a few ms.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FileSink } from './fileSink.ts';
import { writeCover } from './renderBatch.ts';
import { serializeError } from './workerErrors.ts';
import { writingSite } from './stages.ts';
import { environmentError } from '../../shared/stageErrors.ts';
import { WRITTEN, FAILED, FLUSH, type WriterData, type WriterBatch } from './threadSink.ts';

const { folder, progress, errors } = workerData as WriterData;
const sink = new FileSink(folder);
const counters = new Int32Array(progress);

parentPort!.on('message', (message: WriterBatch | typeof FLUSH) => {
  if (message === FLUSH) {
    parentPort!.postMessage(FLUSH);
    return;
  }
  // After a failure the build is stopping: the batches still queued are counted, not written.
  if (Atomics.load(counters, FAILED) === 0) write(message);
  Atomics.add(counters, WRITTEN, 1);
  Atomics.notify(counters, WRITTEN);
});

function write(batch: WriterBatch): void {
  try {
    for (let i = 0; i < batch.paths.length; i++) sink.write(batch.paths[i]!, batch.contents[i]!);
    for (const cover of batch.covers) writeCover(cover, sink);
  } catch (error) {
    // The error first, then the flag: the build's thread reads the error synchronously once it sees the flag.
    errors.postMessage(serializeError(environmentError(error, writingSite(folder.dir)) ?? error));
    Atomics.store(counters, FAILED, 1);
  }
}
