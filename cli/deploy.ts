/**
 * `felt deploy`: uploads dist/ to a hosting bucket, changed files only (by
 * MD5), each with its Content-Type and Cache-Control: content-hashed assets
 * are immutable for a year, HTML and page data revalidate every time.
 * A file whose bytes match but whose headers differ is patched, not
 * re-uploaded. Stale objects are removed only with --delete, and not more
 * than a stated share of the bucket without --yes (a deploy of the wrong
 * folder must not empty the site).
 *
 * An upload, patch or deletion that meets a 503, a 429 or a dropped
 * connection is tried again (storage/retry.ts): the storage client retries
 * uploads only with a generation precondition. The summary counts what
 * really happened, not what was planned.
 *
 * On GCS, text files (HTML, CSS, JavaScript, JSON, XML, SVG) are stored
 * gzip-encoded: a bucket serves objects as they are stored and never
 * compresses on the fly, so without this every visitor of a bucket-hosted
 * site would download three to four times the bytes. GCS still answers a
 * client that does not accept gzip with the decompressed bytes.
 *
 * Each local file's MD5 comes from a size+mtime+inode cache
 * (localChecksums.ts, as pull's): an unchanged file in a new release is a
 * hard link to the old one, so a deploy of a release with 200 new pages
 * reads those 200 files, not the whole site. The rest are hashed in parallel.
 *
 * A GCS bucket also gets its website pages set (index.html for a folder's
 * URL, 404.html for a missing one) when they differ: without them a missing
 * page answers with the bucket's XML error instead of the site's 404 page.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { isCompressible } from '../site/serve/compression.ts';
import { cacheControlFor, contentTypeFor } from '../site/serve/headers.ts';
import pLimit from 'p-limit';
import { ERROR_PAGES } from '../shared/errorPages.ts';
import { FeltError } from '../shared/errors.ts';
import { loadProject } from './project.ts';
import { createReporter, type Reporter } from './report.ts';
import { LocalChecksums, type FileStamp } from './localChecksums.ts';
import { bucketName, openStorage, removeLeftoversIn, type StorageChoice } from './storage/index.ts';
import { isNotFound } from './storage/errors.ts';
import { compareNames, listInRanges, nameRanges } from './storage/nameRanges.ts';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './storage/retry.ts';
import type { ObjectInfo, WebsitePages } from './storage/types.ts';
import { deletionRounds, referencesOf, uploadDependencies } from './deployOrder.ts';
import { leaseServedRelease } from '../site/build/releaseReaders.ts';

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
  /** The most of the bucket's objects --delete may remove without `yes`, in percent (default 25). */
  maxDeletePercent?: number;
  /** Delete more than maxDeletePercent all the same. */
  yes?: boolean;
  /** How failed storage calls are tried again (default storage/retry.ts DEFAULT_RETRY). */
  retry?: Partial<RetryPolicy>;
  reporter?: Reporter;
}

export interface DeployResult {
  bucket: string;
  /** The plan: files to upload. */
  upload: string[];
  /** What was really uploaded, patched and deleted (the plan less what failed). */
  uploaded: string[];
  patched: string[];
  deleted: string[];
  /** The uploads stored gzip-encoded. */
  gzipped: string[];
  patch: string[];
  unchanged: number;
  remove: string[];
  stale: string[];
  failed: { name: string; reason: string }[];
  /** Local files read and MD5-hashed to plan (the others' sums came from the checksum cache). */
  hashedLocally: number;
  /** New objects that link to each other (a page and its feed in a first deploy): the one uploaded first links to the other for a moment. */
  cycles: [string, string][];
  /** The bucket's website pages, when they are (or would be) changed. */
  website?: { from: WebsitePages; to: WebsitePages; error?: string };
  dryRun: boolean;
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
  const notFound = ERROR_PAGES.notFound.file;
  return { mainPageSuffix: 'index.html', ...(local.has(notFound) ? { notFoundPage: notFound } : {}) };
}

function describePages(pages: WebsitePages): string {
  return pages.mainPageSuffix || pages.notFoundPage ? `folders ${pages.mainPageSuffix ?? '(none)'}, missing pages ${pages.notFoundPage ?? '(none)'}` : 'none';
}

function sameContent(remote: ObjectInfo, local: LocalFile): boolean {
  if ((remote.contentEncoding ?? undefined) !== local.encoding) return false;
  return (local.encoding ? remote.metadata[SOURCE_MD5] : remote.md5) === local.md5;
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  // dist/ is a link a build flips to its new release (site/build/output.ts): one release, resolved once and
  // leased for the whole run so no build reworks it meanwhile (releaseReaders.ts), is deployed whole.
  const lease = await leaseServedRelease(path.resolve(options.distDir));
  try {
    return await deployRelease(options, lease.root);
  } finally {
    lease.release();
  }
}

async function deployRelease(options: DeployOptions, root: string): Promise<DeployResult> {
  const reporter = options.reporter ?? createReporter();
  const missing = () => new FeltError('DIST_MISSING', `${options.distDir} is missing or empty`, { hint: 'run felt build first' });
  if (!hasEntries(root)) throw missing();
  const project = await loadProject(options.contentDir);
  // The article buckets are the pipeline's (generate, publish, pull): a site deployed into one would mix thousands of
  // pages in with the articles, and a --delete there would remove the articles themselves.
  const articleBuckets = (['prod', 'dev'] as const).map((env) => bucketName(project.settings.storage.prefix, env));
  if (articleBuckets.includes(options.bucket)) {
    throw new FeltError(
      'BAD_OPTION',
      `--bucket ${options.bucket} is the ${options.bucket === articleBuckets[0] ? 'production' : 'dev'} article bucket (storage.prefix in site.json)`,
      {
        hint: 'deploy the site to its own hosting bucket, like www-feltmagazine',
      },
    );
  }
  const storage = openStorage(project, options.storage);
  const bucket = storage.bucket(options.bucket);
  const compress = options.gzip !== false && storage.kind === 'gcs';
  const checksums = await LocalChecksums.forDist(options.contentDir, options.distDir);
  const exists = await bucket.exists();
  // The bucket is listed while the release is walked and its files hashed, a large GCS bucket in name ranges at
  // once (each page is a round trip). The ranges are cut where the last deploy's names fell (the checksum cache's
  // keys), as the bucket mostly holds the last release, so the listing need not wait for the walk (at 100,000
  // articles about 2 s); a first deploy, without that cache, cuts where this release's names fall. Any cut is correct.
  const list = (names: readonly string[]) => listInRanges(bucket, '', storage.kind === 'gcs' ? nameRanges(names) : [{}]);
  const lastNames = checksums.knownKeys();
  let listing = exists && lastNames.length ? list(lastNames) : undefined;
  // Awaited below, after the hashing; this only keeps a failed listing from counting as unhandled meanwhile.
  listing?.catch(() => {});
  const files = await walk(root);
  if (!files.length) throw missing();
  listing ??= exists ? list(files.map((f) => f.name)) : Promise.resolve([]);
  listing.catch(() => {});
  const result: DeployResult = {
    bucket: bucket.location,
    upload: [],
    uploaded: [],
    patched: [],
    deleted: [],
    gzipped: [],
    patch: [],
    unchanged: 0,
    remove: [],
    stale: [],
    failed: [],
    hashedLocally: 0,
    cycles: [],
    dryRun: Boolean(options.dryRun),
  };
  const sums = await checksums.md5sOf(files.map(({ name, file, stamp }) => ({ key: name, file, stamp })));
  result.hashedLocally = checksums.hashed;
  // Only a shortcut for the next deploy: a project folder that cannot be written to costs that deploy a full hash, nothing else.
  await checksums
    .save()
    .catch((error: unknown) =>
      reporter.note(
        `note: the deploy checksum cache was not saved (${error instanceof Error ? error.message : String(error)}); the next deploy hashes every file`,
      ),
    );
  const remote = new Map<string, ObjectInfo>((await listing).map((o) => [o.name, o]));
  const local = new Map<string, LocalFile>();
  for (const [i, { name, file, stamp }] of files.entries()) {
    // Once per file: at 150,000 files each lookup of the type by extension counts.
    const contentType = contentTypeFor(name);
    const entry: LocalFile = {
      file,
      md5: sums[i]!,
      ...(compress && isCompressible(contentType, stamp.size) ? { encoding: 'gzip' as const } : {}),
    };
    local.set(name, entry);
    const current = remote.get(name);
    if (!current || !sameContent(current, entry)) {
      result.upload.push(name);
      if (entry.encoding) result.gzipped.push(name);
    } else if (current.contentType !== contentType || current.cacheControl !== cacheControlFor(name)) result.patch.push(name);
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
  if (result.website && !result.website.error)
    reporter.print(`website pages: ${describePages(result.website.to)} (now: ${describePages(result.website.from)})`);
  reporter.print(
    `plan: ${result.upload.length} to upload${result.gzipped.length ? ` (${result.gzipped.length} gzip-encoded)` : ''}, ${result.patch.length} headers to fix, ${result.unchanged} unchanged, ${result.remove.length} to delete${result.stale.length ? `, ${result.stale.length} stale (kept; --delete removes them)` : ''} in ${bucket.location}`,
  );
  // A mistyped --bucket is a new bucket: said before it is made, so the plan shows it.
  if (!exists)
    reporter.note(
      `note: ${bucket.location} does not exist; ${options.dryRun ? 'a real deploy creates it' : 'creating it'} (if you meant an existing bucket, check --bucket)`,
    );
  const deleteRefusal = checkDeleteShare(result.remove.length, remote.size, bucket.location, options.maxDeletePercent ?? DEFAULT_MAX_DELETE_PERCENT);
  if (options.dryRun) {
    if (deleteRefusal && !options.yes) reporter.note(`warning: ${deleteRefusal.message}; a real run needs --yes`);
    return result;
  }
  if (deleteRefusal && !options.yes) throw deleteRefusal;
  if (!exists) await bucket.create();
  // A killed deploy's half-written files (a folder bucket's temporaries) are where this one writes again.
  else
    await removeLeftoversIn(
      bucket,
      [...result.upload, ...result.patch].map((name) => name.slice(0, name.lastIndexOf('/') + 1)),
      (line) => reporter.note(line),
    );
  const progress = reporter.progress('deploy', result.upload.length + result.patch.length + result.remove.length);
  const limit = pLimit(8);
  const order = await uploadOrder(result.upload, local, remote, project.settings.url);
  result.cycles = order.cycles;
  // In a first deploy every new category page and its new articles link to each other: nothing to say then.
  if (order.cycles.length && remote.size)
    reporter.note(
      `note: ${order.cycles.length} new ${order.cycles.length === 1 ? 'page links' : 'pages link'} in a circle (e.g. ${order.cycles[0]!.join(' ↔ ')}): one of each pair goes up before the other exists`,
    );
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const done: Record<string, string[]> = { uploaded: result.uploaded, patched: result.patched, deleted: result.deleted };
  const attempt = (name: string, verb: 'uploaded' | 'patched' | 'deleted', work: () => Promise<unknown>) =>
    limit(async () => {
      try {
        await withRetries(work, policy, (reason, retry, retries, waitMs) =>
          progress.note(`retrying ${name} in ${(waitMs / 1000).toFixed(1)} s after ${reason} (retry ${retry} of ${retries})`),
        );
        done[verb]!.push(name);
        progress.tick(`${verb} ${name}`);
        return true;
      } catch (error) {
        result.failed.push({ name, reason: error instanceof Error ? error.message : String(error) });
        progress.tick(`failed ${name}`);
        return false;
      }
    });
  // Each upload starts once the new objects it names are up; a failed one holds back what links to it.
  const uploaded = new Map<string, Promise<boolean>>();
  const upload = (name: string): Promise<boolean> => {
    let done = uploaded.get(name);
    if (!done) {
      done = Promise.all((order.waitsFor.get(name) ?? []).map(upload)).then(async (ready) => {
        if (ready.includes(false)) {
          const missing = (order.waitsFor.get(name) ?? []).filter((_, i) => !ready[i]);
          result.failed.push({ name, reason: `not uploaded: it links to ${missing.join(', ')}, which failed` });
          progress.tick(`held back ${name}`);
          return false;
        }
        return attempt(name, 'uploaded', async () => {
          const { file, md5, encoding } = local.get(name)!;
          const raw = await readFile(file);
          const data = encoding ? await gzip(raw, { level: 9 }) : raw;
          await bucket.write(name, data, {
            contentType: contentTypeFor(name),
            cacheControl: cacheControlFor(name),
            ...(encoding ? { contentEncoding: encoding, metadata: { [SOURCE_MD5]: md5 } } : {}),
            resumable: data.length > (options.resumableAbove ?? 8 * 1024 * 1024),
          });
        });
      });
      uploaded.set(name, done);
    }
    return done;
  };
  await Promise.all([
    ...result.upload.map(upload),
    ...result.patch.map((name) =>
      attempt(name, 'patched', () => bucket.patch(name, { contentType: contentTypeFor(name), cacheControl: cacheControlFor(name) })),
    ),
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
  // Old files go last, referrers first (deployOrder.ts), so a visitor mid-deploy never meets a page whose assets are gone.
  // A retried deletion whose first try went through finds nothing: gone is what was asked.
  const remove = (name: string) => bucket.delete(name).catch((error: unknown) => (isNotFound(error) ? undefined : Promise.reject(error)));
  for (const round of deletionRounds(result.remove)) await Promise.all(round.map((name) => attempt(name, 'deleted', () => remove(name))));
  progress.done();
  for (const list of [result.uploaded, result.patched, result.deleted]) list.sort();
  return result;
}

export const DEFAULT_MAX_DELETE_PERCENT = 25;

/** The refusal of a --delete that would remove more than `maxPercent` of the bucket's objects, or undefined. */
function checkDeleteShare(deletions: number, objects: number, location: string, maxPercent: number): FeltError | undefined {
  if (!deletions || deletions * 100 <= objects * maxPercent) return undefined;
  return new FeltError(
    'TOO_MANY_DELETIONS',
    `--delete would remove ${deletions} of the ${objects} objects in ${location} (${Math.round((deletions * 100) / objects)}%), more than --max-delete ${maxPercent}%`,
    { hint: 'check --dist and the bucket, then rerun with --yes, or raise --max-delete' },
  );
}

/** What each upload waits for: the uploads of the new objects it names. */
async function uploadOrder(uploads: string[], local: Map<string, LocalFile>, remote: Map<string, ObjectInfo>, siteUrl: string) {
  const has = (name: string) => local.has(name);
  const texts = new Map<string, string>();
  for (const name of uploads) if (/\.(?:html|json|xml|js|mjs|css|webmanifest|txt)$/.test(name)) texts.set(name, await readFile(local.get(name)!.file, 'utf8'));
  return uploadDependencies(
    uploads,
    (name) => !remote.has(name),
    (name) => (texts.has(name) ? referencesOf(name, texts.get(name)!, siteUrl, has, local.keys()) : new Set()),
  );
}

interface ReleaseFile {
  name: string;
  file: string;
  stamp: FileStamp;
}

/** Whether a release folder holds anything of the site's (a missing or empty dist/ is refused before storage is opened). */
function hasEntries(root: string): boolean {
  try {
    return readdirSync(root).some((name) => !name.startsWith('.') || name === '.well-known');
  } catch {
    return false;
  }
}

/** Folders read between two turns of the event loop: the bucket's listing pages are answered and asked for meanwhile. */
const FOLDERS_PER_TURN = 64;

/**
 * Every file of a release, by object name, with the stat() the checksum cache compares. Synchronous calls on
 * purpose: a release of 100,000 articles holds about 150,000 files, and one stat after another costs half of
 * what as many promises through the thread pool did. It yields every FOLDERS_PER_TURN folders so that the
 * listing started before it goes on page after page meanwhile. Sorted as GCS orders names (compareNames;
 * localeCompare took three times as long).
 */
async function walk(root: string): Promise<ReleaseFile[]> {
  const found: ReleaseFile[] = [];
  const folders: [dir: string, prefix: string][] = [[root, '']];
  for (let read = 0; folders.length; read++) {
    if (read > 0 && read % FOLDERS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const [dir, prefix] = folders.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      // Dot files (.felt/, the build's own bookkeeping) are not part of the site.
      if (entry.name.startsWith('.') && entry.name !== '.well-known') continue;
      // `dir` is already a clean path and a name has no separator: path.join's normalising was a tenth of the walk.
      const file = `${dir}${path.sep}${entry.name}`;
      if (entry.isDirectory()) folders.push([file, `${prefix}${entry.name}/`]);
      else if (entry.isFile()) {
        const { size, mtimeMs, ino } = statSync(file);
        found.push({ name: `${prefix}${entry.name}`, file, stamp: { size, mtimeMs, ino } });
      }
    }
  }
  return found.sort((a, b) => compareNames(a.name, b.name));
}
