// Run by bench/memory.mjs --search-index: the live heap the cold build's search index holds at once, which the stage
// marks cannot see (the build thread makes it between them, beside the pages). Needs node --expose-gc.
import v8 from 'node:v8';
import { loadMessages } from '../../site/i18n/loadMessages.ts';
import { loadContent } from '../../site/content/loadContent.ts';
import { buildSiteModel } from '../../site/model/siteModel.ts';
import { writeSearchIndex } from '../../site/indexes/searchIndex.ts';

const live = () => {
  (globalThis as unknown as { gc: () => void }).gc();
  return v8.getHeapStatistics().used_heap_size;
};

/**
 * Live bytes before the index; when its first file is written (every file is made by then); the most any full
 * collection left alive while it was made (every collection is a full one meanwhile, --gc-global, and with
 * --max-semi-space-size=4 they come every few MB allocated: often enough to see the postings, which live between files);
 * and its files' length.
 */
export async function searchIndexHeap(contentDir: string): Promise<{ before: number; planned: number; peak: number; fileChars: number; files: number }> {
  const model = buildSiteModel(await loadContent(contentDir), { messages: await loadMessages() });
  const before = live();
  let planned = 0;
  let peak = 0;
  let fileChars = 0;
  let files = 0;
  const profiler = new v8.GCProfiler();
  v8.setFlagsFromString('--gc-global');
  profiler.start();
  writeSearchIndex(model, {
    write: (_file, content) => {
      if (files++ === 0) {
        v8.setFlagsFromString('--no-gc-global');
        const full = profiler.stop()!.statistics.filter((gc) => gc.gcType === 'MarkSweepCompact');
        peak = Math.max(0, ...full.map((gc) => gc.afterGC.heapStatistics.usedHeapSize));
        planned = live();
      }
      fileChars += content.length;
    },
    keep: () => {},
  });
  return { before, planned, peak, fileChars, files };
}
