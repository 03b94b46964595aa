/**
 * One cover's files, made with sharp (libvips): the picture, an SVG or the
 * provider's raster, is drawn once at 1200 × 630, and every width and format
 * is made from that: AVIF and WebP at each width of coverSizes.ts, and the
 * share card as a JPEG (og:image: every network reads JPEG; a PNG of the
 * same card costs twice the time for nothing a crawler shows).
 *
 * The encoders' settings are part of the images' cache key (ENCODING), and
 * so is libvips' version: either changing changes the bytes.
 */
import sharp, { type Sharp } from 'sharp';
import { COVER_FORMATS, COVER_HEIGHT, COVER_WIDTH, COVER_WIDTHS, coverHeight, type CoverFormat } from './coverSizes.ts';

// Effort is the encoders' time against size: AVIF's effort 0 is four times faster than its default
// for files a few hundred bytes larger at these sizes; WebP's 2 is half the time of its default 4.
const ENCODERS: Record<CoverFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 45, effort: 0 }),
  webp: (image) => image.webp({ quality: 72, effort: 2 }),
};
const CARD_QUALITY = 82;

/** What the cached bytes depend on besides the picture: change a setting above, and this changes. */
export const ENCODING = `vips ${sharp.versions.vips}; avif q45 e0; webp q72 e2; jpeg q${CARD_QUALITY}; widths ${COVER_WIDTHS.join(',')}`;

export type Picture = { svg: string } | { raster: Uint8Array };

export interface CoverFile {
  /** "400.avif", …, "card.jpg": the file's name within its cover. */
  name: string;
  bytes: Buffer;
}

/** Every file of one cover, in a fixed order. */
export async function rasterise(picture: Picture): Promise<CoverFile[]> {
  const source = 'svg' in picture ? sharp(Buffer.from(picture.svg)) : sharp(picture.raster).rotate().resize(COVER_WIDTH, COVER_HEIGHT, { fit: 'cover' });
  // Drawn once: libvips would otherwise draw the SVG again for every output.
  const { data, info } = await source.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const base = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const jobs: Promise<CoverFile>[] = [];
  for (const width of COVER_WIDTHS) {
    for (const format of COVER_FORMATS) {
      const resized = width === info.width ? base() : base().resize(width, coverHeight(width));
      jobs.push(
        ENCODERS[format](resized)
          .toBuffer()
          .then((bytes) => ({ name: `${width}.${format}`, bytes })),
      );
    }
  }
  jobs.push(
    base()
      .jpeg({ quality: CARD_QUALITY })
      .toBuffer()
      .then((bytes) => ({ name: 'card.jpg', bytes })),
  );
  return Promise.all(jobs);
}
