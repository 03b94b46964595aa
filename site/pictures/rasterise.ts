/**
 * One cover's files, made with sharp (libvips). A provider's raster is drawn
 * once at 1200 × 630, and every width and format is made from that: AVIF and
 * WebP at each width of coverSizes.ts, and the share card as a JPEG
 * (og:image: every network reads JPEG; a PNG of the same card costs twice
 * the time for nothing a crawler shows). A generated cover is served as its
 * SVG, so only its share card is drawn (shareCard): crawlers do not read SVG.
 *
 * The encoders' settings are part of the images' cache key (ENCODING), and
 * so is sharp's version (which pins the libvips it ships): either changing
 * changes the bytes. sharp itself (libvips, 0.1 s of CPU to load) is loaded
 * only when a picture is made: a build whose pictures are all in the image
 * cache or the release never loads it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Sharp } from 'sharp';
import { CARD_JPEG, encodeCard } from './cardEncoder.cjs';
import { COVER_FORMATS, COVER_HEIGHT, COVER_WIDTH, COVER_WIDTHS, coverHeight, type CoverFormat } from './coverSizes.ts';

// Effort is the encoders' time against size. AVIF's effort 1 is several times faster than its default 4 and
// within 10% of its size; effort 0 is faster still but up to 70% larger (14.5 KB against 8.7 KB for the bundled
// article's 960 px cover: most of the article page's 90 KB budget margin). WebP's 2 is half the time of its default.
// The share card's are cardEncoder.cjs's, with its pipeline: the early share-card thread runs that file too.
const SETTINGS = { avif: { quality: 45, effort: 1 }, webp: { quality: 72, effort: 2 }, card: CARD_JPEG };
const ENCODERS: Record<CoverFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif(SETTINGS.avif),
  webp: (image) => image.webp(SETTINGS.webp),
};

/** What the cached bytes depend on besides the picture: change a setting above, and this changes. */
export const ENCODING = JSON.stringify({ sharp: sharpVersion(), widths: COVER_WIDTHS, ...SETTINGS });

/** sharp's version, from its package.json (which the package does not export: found above its entry file). */
function sharpVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('sharp'));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'sharp' && manifest.version) return manifest.version;
    } catch {
      // No package.json at this level: look one up.
    }
    if (path.dirname(dir) === dir) return 'unknown';
    dir = path.dirname(dir);
  }
}

let loading: Promise<typeof import('sharp')> | undefined;
async function loadSharp(): Promise<typeof import('sharp').default> {
  return (await (loading ??= import('sharp'))).default;
}

export interface CoverFile {
  /** "400.avif", …, "card.jpg": the file's name within its cover. */
  name: string;
  bytes: Buffer;
}

/** The share card (og:image) of a generated cover: its SVG drawn at 1200 × 630, as a JPEG. */
export async function shareCard(svg: string): Promise<CoverFile> {
  return { name: 'card.jpg', bytes: await encodeCard(await loadSharp(), svg) };
}

/** Every file of a provider picture's cover, in a fixed order. */
export async function rasterise(raster: Uint8Array): Promise<CoverFile[]> {
  const sharp = await loadSharp();
  const source = sharp(raster).rotate().resize(COVER_WIDTH, COVER_HEIGHT, { fit: 'cover' });
  // Decoded and cropped once: libvips would otherwise do it again for every output.
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
      .jpeg(SETTINGS.card)
      .toBuffer()
      .then((bytes) => ({ name: 'card.jpg', bytes })),
  );
  return Promise.all(jobs);
}
