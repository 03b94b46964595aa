/**
 * The shape of every cover: one aspect (the 1200 × 630 of a share card, so
 * the share card is the largest cover itself), three widths for `srcset`, two
 * formats. Pages reserve the box from these numbers, so nothing shifts while
 * an image arrives.
 */
export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 630;
export const COVER_WIDTHS = [320, 640, 960] as const;
/** Best first: a browser takes the first `<source>` it can show. */
export const COVER_FORMATS = ['avif', 'webp'] as const;
export type CoverFormat = (typeof COVER_FORMATS)[number];

export function coverHeight(width: number): number {
  return Math.round((width * COVER_HEIGHT) / COVER_WIDTH);
}
