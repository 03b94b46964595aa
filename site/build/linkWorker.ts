/**
 * A link thread: links its half of a release's files from the served release (releaseLinks.ts, linkFiles) and
 * says it is done, or why it failed. It imports nothing of the rendering (the linker, felt's errors): it starts in
 * a few ms.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { linker, type LinkJob } from './releaseLinks.ts';
import { serializeError } from './workerErrors.ts';
import { writingSite } from './stages.ts';
import { environmentError } from '../../shared/stageErrors.ts';

const { release, currentRelease, into, files, outDir } = workerData as LinkJob;
try {
  const link = linker(release, currentRelease, into);
  for (const file of files) link(file);
  parentPort!.postMessage({});
} catch (error) {
  // A full disk is said here: past postMessage, the system error's code is gone.
  parentPort!.postMessage({ error: serializeError(environmentError(error, writingSite(outDir)) ?? error) });
}
