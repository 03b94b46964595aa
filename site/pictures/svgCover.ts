/**
 * A drawn cover's file: its SVG at the cover's size, under its article's
 * slug. Apart from the cover stage (coverStage.ts), which loads the image
 * encoders, because render threads draw these beside the pages they render
 * (renderPool.ts): at 10,000 articles drawing and writing them is 0.7 s of
 * CPU that the build's own thread otherwise spent after the last page.
 */
import { urls } from '../model/urls.ts';
import { coverSvg, type CoverSubject } from './coverArt.ts';
import { COVER_HEIGHT, COVER_WIDTH } from './coverSizes.ts';

export function svgCoverFile(subject: CoverSubject): { path: string; content: string } {
  return { path: urls.coverSvg(subject.slug).slice(1), content: coverSvg(subject, COVER_WIDTH, COVER_HEIGHT) };
}
