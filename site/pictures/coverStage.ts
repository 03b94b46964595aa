/**
 * The build's picture stage, written into the release: every article's cover
 * (a drawn SVG, coverArt.ts, which the articles of a subcategory share
 * between them, drawnCovers.ts; or a provider picture's rasters,
 * rasterise.ts) and the share cards (shareCards.ts): one per provider picture, one per
 * (subcategory, variant) that some article shows, and the site's.
 *
 * Each raster has a key: a digest of what its bytes are made from (the art's
 * version and its subject, or the provider picture's digest; the encoders'
 * settings). Made once, it is kept under its key in the image cache
 * (`.felt-cache/images/`, beside articles.json), so a build into a new
 * folder, or a full rebuild (--no-incremental), of a site whose pictures were
 * made before only copies them. An SVG is drawn again instead: that is
 * cheaper than reading it. The key (an SVG's: its art version and where its
 * article is filed) is also each file's version in the build manifest: an
 * incremental build neither makes nor copies the files of an unchanged
 * picture, the release keeps them (site/build/commit.ts links them from the
 * current one).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../../shared/atomicWrite.ts';
import { digest } from '../../shared/digest.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import { ART_VERSION, type CoverSubject } from './coverArt.ts';
import { COVER_FORMATS, COVER_WIDTHS } from './coverSizes.ts';
import { svgCoverFile } from './svgCover.ts';
import type { DrawnCover } from './drawnCovers.ts';
import { ENCODING, rasterise, shareCard, type CoverFile } from './rasterise.ts';
import { articleShareCard, cardVariant, siteShareCard, type ShareCard } from './shareCards.ts';
import { cardSvg, earlyCardsUnderWay, keepEarlyCards, takeEarlyCard } from './earlyCards.ts';
import type { Article, CategoryNode } from '../../shared/types.ts';
import { FeltError } from '../../shared/errors.ts';

export interface CoverTarget {
  /**
   * Notes a file of this build and its version (this build's manifest); true when the release this build reuses
   * has that very version of it, so the file is kept, not made. One call answers both: at 100,000 articles a
   * lookup in the reused versions and a second one to record each cover were a tenth of a rebuild's lookups.
   */
  record(file: string, version: string): boolean | void;
  write(file: string, contents: string | Uint8Array): void;
}

export interface CoverOptions {
  /** The image cache's folder; none for a build in memory. */
  cacheDir?: string;
  /**
   * A rebuild after articles were only added (build/additions.ts), none of the others' drawn covers moved: the
   * pictures of the articles it had are as the previous build recorded them (`keep` records, as they were, the
   * previous build's files it names), and only the new articles' are looked at.
   */
  additions?: { articles: readonly Article[]; keep: (kept: (file: string) => boolean) => void };
}

export interface CoverCounts {
  /** Rasters (share cards, provider pictures' covers) made by this build. */
  made: number;
  /** Rasters taken from the image cache. */
  cached: number;
  /** Rasters the release already had. */
  kept: number;
  /** Drawn SVG covers this build writes (the others the release already had). */
  drawn: number;
}

interface RasterJob {
  key: string;
  /** Output file (relative to the site's root) for each name the job makes. */
  outputs: Map<string, string>;
  make: () => Promise<CoverFile[]>;
  /** A share card's subject, what its bytes are drawn from. */
  card?: CoverSubject;
}

/** A cover stage under way: its rasters are being made; finish() draws the SVG covers and waits for the rest. */
export interface CoversUnderWay {
  /**
   * Hands the SVG covers still to draw to the caller, who writes each
   * svgCoverFile (the render threads, beside their pages); finish() then
   * draws none of them.
   */
  takeSvgs(): DrawnCover[];
  finish(): Promise<CoverCounts>;
  /** Waits for the rasters under way, whatever became of them (a build that failed, before it removes its release). */
  settled(): Promise<void>;
  /** Rasters are still being made. */
  busy(): boolean;
}

/**
 * Starts the cover stage: records every file's version at once, and starts
 * making the rasters that neither the release nor the image cache has. They
 * are made on libuv's threads, so a build starts them before it renders its
 * pages: a cold build's share cards (about 0.5 s of CPU) are then drawn beside the
 * rendering instead of after it, while a core would otherwise wait. The SVG
 * covers are drawn by whoever takes them (takeSvgs), else by finish().
 */
export function startCovers(model: SiteModel, target: CoverTarget, options: CoverOptions = {}): CoversUnderWay {
  const counts: CoverCounts = { made: 0, cached: 0, kept: 0, drawn: 0 };
  const todo: RasterJob[] = [];
  const svgs: DrawnCover[] = [];
  const { additions } = options;
  if (additions) additions.keep(isPicture);
  for (const job of rasterJobs(model, additions?.articles ?? model.articles, target, svgs)) {
    let kept = true;
    for (const file of job.outputs.values()) kept = target.record(file, job.key) === true && kept;
    if (kept) counts.kept++;
    else todo.push(job);
  }
  // The cards a cold build's own thread may already be drawing (earlyCards.ts): none other is drawn there now.
  if (earlyCardsUnderWay()) keepEarlyCards(todo.flatMap((job) => (job.card ? [cardSvg(job.card)] : [])));
  // A cold build has no image cache to look in: each look is a round trip through the event loop, per raster.
  const cacheDir = options.cacheDir && existsSync(options.cacheDir) ? options.cacheDir : undefined;
  // One picture at a time, on one of libuv's threads: the pages render beside it on every core meanwhile, and
  // two at a time held 30-40 MB more at the build's peak (a cold 1,000-article build: 282-297 MB against 254-260)
  // for no shorter build.
  const limit = pLimit(1);
  let busy = todo.length > 0;
  // Storing a raster in the image cache (six file operations and an fsync) does not hold up the next raster,
  // nor the build's thread, whose event loop every raster's step waits for (renderPool.ts, busy).
  const stores: Promise<void>[] = [];
  const jobs = todo.map((job) =>
    limit(async () => {
      let files = await readCached(cacheDir, job.key);
      if (files) counts.cached++;
      else {
        files = await job.make();
        stores.push(storeCached(options.cacheDir, job.key, files));
        counts.made++;
      }
      for (const file of files) {
        const output = job.outputs.get(file.name);
        if (output) target.write(output, file.bytes);
      }
    }),
  );
  const rasters = Promise.all(jobs);
  // Heard in finish(); until then a failure (an operator's file that is no picture) must not end the process.
  rasters.catch(() => undefined).finally(() => (busy = false));
  counts.drawn = svgs.length;
  return {
    takeSvgs: () => svgs.splice(0),
    async finish() {
      for (const cover of svgs.splice(0)) {
        const file = svgCoverFile(cover);
        target.write(file.path, file.content);
      }
      await rasters;
      await Promise.all(stores);
      return counts;
    },
    async settled() {
      // Every job, not the first failure: the jobs queued behind a failed one still run and write, and a failed
      // build removes its staging folder only once nothing can write into it again (a full disk left one behind).
      await Promise.allSettled(jobs);
      await Promise.all(stores);
    },
    busy: () => busy,
  };
}

/**
 * What every raster's key holds besides its subject, hashed once. The layout names which files a key's cache entry
 * holds (a card alone; a provider picture's widths, formats and card), so an entry made for other files is never read.
 */
const LAYOUT = 'shared cards: a card key holds card.jpg alone; a provided picture its widths, formats and card.jpg';
const KEY_BASE = digest(JSON.stringify([ART_VERSION, ENCODING, LAYOUT]));
const CARD = 'card.jpg';

/**
 * Records each drawn cover's SVG and puts those to write in `svgs` (drawing one costs less than reading it from a
 * cache would), and yields the rasters the site needs: each provider picture's set, and each share card once,
 * however many articles show it.
 */
function* rasterJobs(model: SiteModel, articles: readonly Article[], target: CoverTarget, svgs: DrawnCover[]): Generator<RasterJob> {
  const brand = model.content.settings.brand;
  const cards = new Map<string, ShareCard>();
  // Per subcategory an article is filed under first (none: filed nowhere): its SVGs' version (what they are drawn
  // from besides the variant or the slug, which the file's name holds), and the covers and card variants seen. Looked up by the subcategory's
  // node, so an article costs no key string: this loop runs over every article of every rebuild.
  const filedUnder = new Map<CategoryNode | undefined, { version: string; variants: Set<number>; covers: Set<string> }>();
  for (const article of articles) {
    const provided = model.pictures.get(article.slug);
    if (provided) {
      const outputs = new Map<string, string>();
      for (const width of COVER_WIDTHS) for (const format of COVER_FORMATS) outputs.set(`${width}.${format}`, urls.cover(article.slug, width, format).slice(1));
      outputs.set(CARD, urls.shareCard(article.slug).slice(1));
      yield { key: digest(`${KEY_BASE}${JSON.stringify({ provided: provided.digest })}`), outputs, make: () => rasteriseProvided(provided.file) };
      continue;
    }
    const placement = model.index.placementsOf(article)[0];
    let filed = filedUnder.get(placement?.subcategory);
    if (!filed) {
      const where = `${placement?.category.key ?? ''}/${placement?.subcategory.key ?? ''}`;
      filedUnder.set(placement?.subcategory, (filed = { version: digest(`${ART_VERSION} svg ${where}`), variants: new Set(), covers: new Set() }));
    }
    // Each drawn cover once, however many articles show it.
    const cover = model.coverOf(article);
    if (!filed.covers.has(cover.path)) {
      filed.covers.add(cover.path);
      if (target.record(cover.path.slice(1), filed.version) !== true) svgs.push(cover);
    }
    // Each card once, in the order articles first show it.
    const variant = placement ? cardVariant(article.slug) : 0;
    if (!filed.variants.has(variant)) {
      filed.variants.add(variant);
      const card = articleShareCard(article.slug, placement, brand, false);
      cards.set(card.path, card);
    }
  }
  // The site's own card, for every page that is not an article (and an article filed nowhere).
  const site = siteShareCard(brand);
  cards.set(site.path, site);
  for (const card of cards.values()) {
    const subject = card.subject!;
    yield {
      key: digest(`${KEY_BASE}${JSON.stringify(subject)}`),
      outputs: new Map([[CARD, card.path.slice(1)]]),
      make: () => makeCard(subject),
      card: subject,
    };
  }
}

/** The folders and file the picture stage writes (model/urls.ts: cover, coverSvg, sharedCover, shareCard, sharedCard, siteCard). */
const PICTURE_FOLDERS = ['images/covers/', 'images/og/', 'images/cards/'];
const SITE_CARD = urls.siteCard().slice(1);

function isPicture(file: string): boolean {
  return file === SITE_CARD || PICTURE_FOLDERS.some((folder) => file.startsWith(folder));
}

/** A share card: the one the early thread drew from the same SVG (the same bytes), else made here. */
async function makeCard(subject: CoverSubject): Promise<CoverFile[]> {
  const svg = cardSvg(subject);
  const early = await takeEarlyCard(svg)?.catch(() => undefined);
  return [early ? { name: CARD, bytes: early } : await shareCard(svg)];
}

/** A provider's picture is the operator's file: one that is not an image stops the build with its name. */
async function rasteriseProvided(file: string): Promise<CoverFile[]> {
  const raster = await readFile(file);
  try {
    return await rasterise(raster);
  } catch (error) {
    throw new FeltError('PICTURE_INVALID', `${file}: not a picture felt can read (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}

// ---- The image cache: one file per cover, `{key}.bin`: a JSON header of names and sizes, then the bytes.

function cachePath(cacheDir: string, key: string): string {
  return path.join(cacheDir, key.slice(0, 2), `${key}.bin`);
}

async function readCached(cacheDir: string | undefined, key: string): Promise<CoverFile[] | undefined> {
  if (!cacheDir) return undefined;
  const data = await readFile(cachePath(cacheDir, key)).catch(() => undefined);
  if (!data || data.length < 4) return undefined;
  try {
    const headerLength = data.readUInt32BE(0);
    const header = JSON.parse(data.subarray(4, 4 + headerLength).toString('utf8')) as { name: string; size: number }[];
    const files: CoverFile[] = [];
    let at = 4 + headerLength;
    for (const { name, size } of header) {
      files.push({ name, bytes: data.subarray(at, at + size) });
      at += size;
    }
    // A file cut short (a full disk, a hand-edited cache) is made again, never served.
    return at === data.length ? files : undefined;
  } catch {
    return undefined;
  }
}

async function storeCached(cacheDir: string | undefined, key: string, files: CoverFile[]): Promise<void> {
  if (!cacheDir) return;
  const header = Buffer.from(JSON.stringify(files.map((f) => ({ name: f.name, size: f.bytes.length }))));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  // A cache that cannot be written (a read-only checkout, a full disk) costs the next build time, never this one.
  await writeFileAtomic(cachePath(cacheDir, key), Buffer.concat([length, header, ...files.map((f) => f.bytes)])).catch(() => undefined);
}
