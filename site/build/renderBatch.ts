/**
 * What a render thread is given at a time: a batch of pages, and a few of
 * the build's SVG covers to draw beside them (site/pictures/svgCover.ts), so
 * that drawing them is shared by every thread that renders instead of
 * waiting for the build's own thread after the last page.
 */
import type { PageSpec } from '../pages/types.ts';
import type { DrawnCover } from '../pictures/drawnCovers.ts';
import { svgCoverFile } from '../pictures/svgCover.ts';
import type { PageRenderer } from '../render/pageRenderer.ts';
import type { OutputSink } from './fileSink.ts';

export interface RenderBatch {
  pages: PageSpec[];
  covers: DrawnCover[];
}

export function writeBatch(batch: RenderBatch, render: PageRenderer, sink: OutputSink): void {
  for (const spec of batch.pages) for (const file of render(spec)) sink.write(file.path, file.content);
  if (batch.covers.length === 0) return;
  if (sink.drawCovers) return sink.drawCovers(batch.covers);
  for (const cover of batch.covers) writeCover(cover, sink);
}

/** Draws a cover and writes its file: on the thread that renders, or on a writer thread (writeWorker.ts). */
export function writeCover(cover: DrawnCover, sink: OutputSink): void {
  const file = svgCoverFile(cover);
  sink.write(file.path, file.content);
}
