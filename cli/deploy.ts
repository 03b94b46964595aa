/**
 * `felt deploy`: uploads dist/ to a hosting bucket, changed files only (by
 * MD5), each with its Content-Type and Cache-Control: content-hashed assets
 * are immutable for a year, HTML and page data revalidate every time.
 * A file whose bytes match but whose headers differ is patched, not
 * re-uploaded. Stale objects are removed only with --delete.
 *
 * On GCS, text files (HTML, CSS, JavaScript, JSON, XML, SVG) are stored
 * gzip-encoded: a bucket serves objects as they are stored and never
 * compresses on the fly, so without this every visitor of a bucket-hosted
 * site would download three to four times the bytes. GCS still answers a
 * client that does not accept gzip with the decompressed bytes.
 *
 * A GCS bucket also gets its website pages set (index.html for a folder's
 * URL, 404.html for a missing one) when they differ: without them a missing
 * page answers with the bucket's XML error instead of the site's 404 page.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { isCompressible } from '../site/serve/compression.ts';
import { cacheControlFor, contentTypeFor } from '../site/serve/headers.ts';
import pLimit from 'p-limit';
import { FeltError } from '../shared/errors.ts';
import { loadProject } from './project.ts';
import { createReporter, type Reporter } from './report.ts';
import { md5Base64 } from './storage/checksum.ts';
import { openStorage, type StorageChoice } from './storage/index.ts';
import type { ObjectInfo, WebsitePages } from './storage/types.ts';

export interface DeployOptions {
  contentDir: string;
  distDir: string;
  bucket: string;
  delete?: boolean;
  dryRun?: boolean;
  /** Store text files gzip-encoded on GCS (default true; a folder bucket always gets the files as they are). */
  gzip?: boolean;
  /** Set the bucket's website pages when they differ (default true; GCS only). */
  website?: boolean;
  storage?: StorageChoice;
  /** Files larger than this go up with a resumable upload (default 8 MiB). */
  resumableAbove?: number;
  reporter?: Reporter;
}

export interface DeployResult {
  bucket: string;
  upload: string[];
  /** The uploads stored gzip-encoded. */
  gzipped: string[];
  patch: string[];
  unchanged: number;
  remove: string[];
  stale: string[];
  failed: { name: string; reason: string }[];
  /** The bucket's website pages, when they are (or would be) changed. */
  website?: { from: WebsitePages; to: WebsitePages; error?: string };
  dryRun: boolean;
}

// The same types (contentTypeFor) and caching as `felt serve`
// (site/serve/headers.ts), so the hosted site behaves as the one tested locally.
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';

export function cacheControlOf(name: string): string {
  return cacheControlFor(name);
}

/**
 * Custom metadata on a gzip-encoded object: the MD5 of the file before
 * compression, so the next deploy compares sources, not compressor output
 * (which may change with the zlib version).
 */
export const SOURCE_MD5 = 'felt-source-md5';

const gzip = promisify(gzipCallback);

interface LocalFile {
  file: string;
  /** MD5 of the file as it is on disk. */
  md5: string;
  encoding?: 'gzip';
}

/** What a folder's URL and a missing page should serve, from what dist/ holds. */
function wantedPages(local: Map<string, LocalFile>): WebsitePages {
  return { mainPageSuffix: 'index.html', ...(local.has('404.html') ? { notFoundPage: '404.html' } : {}) };
}

function describePages(pages: WebsitePages): string {
  return pages.mainPageSuffix || pages.notFoundPage ? `folders ${pages.mainPageSuffix ?? '(none)'}, missing pages ${pages.notFoundPage ?? '(none)'}` : 'none';
}

function sameContent(remote: ObjectInfo, local: LocalFile): boolean {
  if ((remote.contentEncoding ?? undefined) !== local.encoding) return false;
  return (local.encoding ? remote.metadata[SOURCE_MD5] : remote.md5) === local.md5;
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const reporter = options.reporter ?? createReporter();
  const files = await walk(path.resolve(options.distDir));
  if (!files.length) throw new FeltError('DIST_MISSING', `${options.distDir} is missing or empty`, { hint: 'run felt build first' });
  const project = await loadProject(options.contentDir);
  const storage = openStorage(project, options.storage);
  const bucket = storage.bucket(options.bucket);
  const compress = options.gzip !== false && storage.kind === 'gcs';
  const exists = await bucket.exists();
  const remote = new Map<string, ObjectInfo>(exists ? (await bucket.list('')).map((o) => [o.name, o]) : []);
  const result: DeployResult = { bucket: bucket.location, upload: [], gzipped: [], patch: [], unchanged: 0, remove: [], stale: [], failed: [], dryRun: Boolean(options.dryRun) };
  const local = new Map<string, LocalFile>();
  for (const { name, file, size } of files) {
    const entry: LocalFile = { file, md5: md5Base64(await readFile(file)), ...(compress && isCompressible(contentTypeFor(name), size) ? { encoding: 'gzip' as const } : {}) };
    local.set(name, entry);
    const current = remote.get(name);
    if (!current || !sameContent(current, entry)) {
      result.upload.push(name);
      if (entry.encoding) result.gzipped.push(name);
    } else if (current.contentType !== contentTypeFor(name) || current.cacheControl !== cacheControlOf(name)) result.patch.push(name);
    else result.unchanged++;
  }
  for (const name of remote.keys()) if (!local.has(name)) (options.delete ? result.remove : result.stale).push(name);
  if (bucket.website && options.website !== false) {
    const to = wantedPages(local);
    try {
      const from = exists ? await bucket.website.read() : {};
      if (from.mainPageSuffix !== to.mainPageSuffix || from.notFoundPage !== to.notFoundPage) result.website = { from, to };
    } catch (error) {
      result.website = { from: {}, to, error: error instanceof Error ? error.message : String(error) };
    }
  }
  if (result.website && !result.website.error) reporter.print(`website pages: ${describePages(result.website.to)} (now: ${describePages(result.website.from)})`);
  reporter.print(`plan: ${result.upload.length} to upload${result.gzipped.length ? ` (${result.gzipped.length} gzip-encoded)` : ''}, ${result.patch.length} headers to fix, ${result.unchanged} unchanged, ${result.remove.length} to delete${result.stale.length ? `, ${result.stale.length} stale (kept; --delete removes them)` : ''} in ${bucket.location}`);
  if (options.dryRun) return result;
  if (!exists) await bucket.create();
  const progress = reporter.progress('deploy', result.upload.length + result.patch.length + result.remove.length);
  const limit = pLimit(8);
  const attempt = (name: string, verb: string, work: () => Promise<unknown>) =>
    limit(async () => {
      try {
        await work();
        progress.tick(`${verb} ${name}`);
      } catch (error) {
        result.failed.push({ name, reason: error instanceof Error ? error.message : String(error) });
        progress.tick(`failed ${name}`);
      }
    });
  await Promise.all([
    ...result.upload.map((name) =>
      attempt(name, 'uploaded', async () => {
        const { file, md5, encoding } = local.get(name)!;
        const raw = await readFile(file);
        const data = encoding ? await gzip(raw, { level: 9 }) : raw;
        await bucket.write(name, data, {
          contentType: contentTypeFor(name),
          cacheControl: cacheControlOf(name),
          ...(encoding ? { contentEncoding: encoding, metadata: { [SOURCE_MD5]: md5 } } : {}),
          resumable: data.length > (options.resumableAbove ?? 8 * 1024 * 1024),
        });
      }),
    ),
    ...result.patch.map((name) => attempt(name, 'patched', () => bucket.patch(name, { contentType: contentTypeFor(name), cacheControl: cacheControlOf(name) }))),
  ]);
  // After the uploads, so the pages they name are there.
  if (result.website && !result.website.error) {
    try {
      await bucket.website!.write(result.website.to);
    } catch (error) {
      result.website.error = error instanceof Error ? error.message : String(error);
    }
  }
  if (result.website?.error) {
    reporter.note(
      `warning: the bucket's website pages are not set (${result.website.error}); without them a missing page shows the bucket's error, not 404.html. ` +
        `Give the deploying account storage.buckets.get and storage.buckets.update, or run: gcloud storage buckets update gs://${bucket.name} --web-main-page-suffix=index.html --web-error-page=404.html`,
    );
  }
  // Old files go last, so a visitor mid-deploy never meets a page whose assets are gone.
  await Promise.all(result.remove.map((name) => attempt(name, 'deleted', () => bucket.delete(name))));
  progress.done();
  return result;
}

async function walk(dir: string, prefix = ''): Promise<{ name: string; file: string; size: number }[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: { name: string; file: string; size: number }[] = [];
  for (const entry of entries) {
    // Dot files (.felt/, the build's own bookkeeping) are not part of the site.
    if (entry.name.startsWith('.') && entry.name !== '.well-known') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(file, `${prefix}${entry.name}/`)));
    else if (entry.isFile()) found.push({ name: `${prefix}${entry.name}`, file, size: (await stat(file)).size });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
