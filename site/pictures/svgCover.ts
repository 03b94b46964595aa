/**
 * A drawn cover's file (drawnCovers.ts): its SVG at the cover's size, at its
 * address. Apart from the cover stage (coverStage.ts), which loads the image
 * encoders, because render threads draw these beside the pages they render
 * (renderPool.ts): at 10,000 articles, when each had its own, drawing and
 * writing them was 0.7 s of CPU that the build's own thread otherwise spent
 * after the last page (2,688 shared covers since, drawnCovers.ts).
 */
import { coverSvg } from './coverArt.ts';
import { COVER_HEIGHT, COVER_WIDTH } from './coverSizes.ts';
import type { DrawnCover } from './drawnCovers.ts';

export function svgCoverFile({ path, subject }: DrawnCover): { path: string; content: string } {
  return { path: path.slice(1), content: coverSvg(subject, COVER_WIDTH, COVER_HEIGHT) };
}
