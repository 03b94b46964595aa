/**
 * The build's picture stage alone (site/pictures/coverStage.ts), at the size
 * of a content folder: `node bench/covers.mjs --stage CONTENT_DIR`. Loads the
 * content and its model (not timed), then writes the covers into a fresh
 * folder with an empty image cache, as a cold build does, and again into
 * another folder with the cache warm; prints wall and CPU (every thread) of
 * each, and how many SVGs and rasters were written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadContent } from '../../site/content/loadContent.ts';
import { loadMessages } from '../../site/i18n/loadMessages.ts';
import { buildSiteModel } from '../../site/model/siteModel.ts';
import { findProviderPictures } from '../../site/pictures/providerPictures.ts';
import { startCovers } from '../../site/pictures/coverStage.ts';
import { FileSink } from '../../site/build/fileSink.ts';

export async function runStageBench(contentDir: string): Promise<void> {
  const root = path.resolve(contentDir);
  const content = await loadContent(root);
  const pictures = findProviderPictures(root, content.settings.locale);
  const model = buildSiteModel(content, { messages: await loadMessages(), pictures });
  const work = mkdtempSync(path.join(os.tmpdir(), 'felt-cover-stage-'));
  const cacheDir = path.join(work, 'images');
  try {
    for (const label of ['cold (empty image cache)', 'new folder (cache warm)']) {
      const sink = new FileSink({ dir: path.join(work, label.startsWith('cold') ? 'cold' : 'warm') });
      let files = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      const counts = await startCovers(model, { record: () => undefined, write: (file, bytes) => (files++, sink.write(file, bytes)) }, { cacheDir }).finish();
      const used = process.cpuUsage(cpu);
      console.log(
        `${model.articles.length.toLocaleString('en')} articles, ${label}: ${((performance.now() - start) / 1000).toFixed(2)} s wall, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU; ` +
          `${files.toLocaleString('en')} files (${counts.drawn.toLocaleString('en')} SVGs), rasters ${counts.made} made, ${counts.cached} from the cache`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
