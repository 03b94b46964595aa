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

/** Live bytes before the index, when its first file is written (every file is made by then), and its files' length. */
export async function searchIndexHeap(contentDir: string): Promise<{ before: number; planned: number; fileChars: number; files: number }> {
  const model = buildSiteModel(await loadContent(contentDir), { messages: await loadMessages() });
  const before = live();
  let planned = 0;
  let fileChars = 0;
  let files = 0;
  writeSearchIndex(model, {
    write: (_file, content) => {
      if (files++ === 0) planned = live();
      fileChars += content.length;
    },
    keep: () => {},
  });
  return { before, planned, fileChars, files };
}
