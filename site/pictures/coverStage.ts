/**
 * The build's picture stage: every article's cover files (a generated
 * cover's SVG and share card; a provider picture's rasters, site/pictures/
 * rasterise.ts) and the site's share card, written into the release.
 *
 * Each cover has a key: a digest of what its bytes are made from (the art's
 * version and its subject, or the provider picture's digest; the encoders'
 * settings). Made once, a cover is kept under its key in the image cache
 * (`.felt-cache/images/`, beside articles.json), one file per cover, so a
 * build into a new folder, or a full rebuild (--no-incremental), of a site
 * whose covers were made before only copies them. The
 * key is also each file's version in the build manifest: an incremental
 * build neither makes nor copies the files of an unchanged cover, the
 * release keeps them (site/build/commit.ts links them from the current one).
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../../shared/atomicWrite.ts';
import { digest } from '../build/buildCache.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import { ART_VERSION, coverSvg, type CoverSubject } from './coverArt.ts';
import { COVER_FORMATS, COVER_HEIGHT, COVER_WIDTH, COVER_WIDTHS } from './coverSizes.ts';
import { ENCODING, rasterise, shareCard, type CoverFile } from './rasterise.ts';
import { FeltError } from '../../shared/errors.ts';

export interface CoverTarget {
  /** The previous build's file versions (its manifest's `others`), when this build reuses it. */
  previous?: Readonly<Record<string, string>>;
  /** Notes a file of this build and its version (this build's manifest). */
  record(file: string, version: string): void;
  write(file: string, bytes: Uint8Array): void;
}

export interface CoverOptions {
  /** The image cache's folder; none for a build in memory. */
  cacheDir?: string;
}

export interface CoverCounts {
  /** Covers rasterised by this build. */
  made: number;
  /** Covers taken from the image cache. */
  cached: number;
  /** Covers the release already had. */
  kept: number;
}

interface CoverJob {
  key: string;
  /** Output file (relative to the site's root) for each name rasterise() makes. */
  outputs: Map<string, string>;
  make: () => Promise<CoverFile[]>;
}

export async function writeCovers(model: SiteModel, target: CoverTarget, options: CoverOptions = {}): Promise<CoverCounts> {
  const counts: CoverCounts = { made: 0, cached: 0, kept: 0 };
  const jobs = [...coverJobs(model)];
  const todo: CoverJob[] = [];
  for (const job of jobs) {
    let kept = true;
    for (const file of job.outputs.values()) {
      target.record(file, job.key);
      kept &&= target.previous?.[file] === job.key;
    }
    if (kept) counts.kept++;
    else todo.push(job);
  }
  // Rasterising runs on libuv's threads: one cover per core at a time keeps them all busy.
  const limit = pLimit(Math.max(1, availableParallelism()));
  await Promise.all(
    todo.map((job) =>
      limit(async () => {
        let files = await readCached(options.cacheDir, job.key);
        if (files) counts.cached++;
        else {
          files = await job.make();
          await storeCached(options.cacheDir, job.key, files);
          counts.made++;
        }
        for (const file of files) {
          const output = job.outputs.get(file.name);
          if (output) target.write(output, file.bytes);
        }
      }),
    ),
  );
  return counts;
}

/** Where an article is filed first: its cover's category and subcategory. */
export function coverSubject(model: SiteModel, articleId: string, slug: string): CoverSubject {
  const placement = model.index.placements.get(articleId)?.[0];
  return { slug, category: placement?.category.key, subcategory: placement?.subcategory.key };
}

/**
 * What every key holds besides its subject, hashed once: a rebuild computes a key per article. The layout names
 * which files a cover has (a generated one: its SVG and card), so a cache entry made for other files is never read.
 */
const LAYOUT = 'generated: svg + card.jpg';
const KEY_BASE = digest(JSON.stringify([ART_VERSION, ENCODING, LAYOUT]));

function* coverJobs(model: SiteModel): Generator<CoverJob> {
  for (const article of model.articles) {
    const provided = model.pictures.get(article.slug);
    const subject = coverSubject(model, article.id, article.slug);
    const outputs = new Map<string, string>();
    if (provided) {
      for (const width of COVER_WIDTHS) for (const format of COVER_FORMATS) outputs.set(`${width}.${format}`, urls.cover(article.slug, width, format).slice(1));
    } else outputs.set(SVG_NAME, urls.coverSvg(article.slug).slice(1));
    outputs.set('card.jpg', urls.shareCard(article.slug).slice(1));
    yield {
      key: digest(`${KEY_BASE}${JSON.stringify(provided ? { provided: provided.digest } : subject)}`),
      outputs,
      make: () => (provided ? rasteriseProvided(provided.file) : generatedCover(subject)),
    };
  }
  // The site's own card: the brand's colours and motif, for every page that is not an article.
  const site: CoverSubject = { slug: model.content.settings.brand };
  yield {
    key: digest(`${KEY_BASE}${JSON.stringify(site)}`),
    outputs: new Map([['card.jpg', urls.siteCard().slice(1)]]),
    make: async () => [await shareCard(coverSvg(site, COVER_WIDTH, COVER_HEIGHT))],
  };
}

const SVG_NAME = 'cover.svg';

/**
 * A generated cover: the SVG itself, served as the picture (about 0.03 ms to write, where rasterising it at three
 * widths in two formats cost about 0.1 s of CPU), and its share card, the one raster a crawler needs. The SVG is
 * our own markup (coverArt.ts: shapes and colours, no text, nothing from the article but a seed and two keys).
 */
async function generatedCover(subject: CoverSubject): Promise<CoverFile[]> {
  const svg = coverSvg(subject, COVER_WIDTH, COVER_HEIGHT);
  return [{ name: SVG_NAME, bytes: Buffer.from(svg) }, await shareCard(svg)];
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
