/**
 * `felt pull`: syncs a bucket's articles into content/articles/{locale}/.
 * Only objects whose MD5 differs from the local file are downloaded; each is
 * checked (a safe name, the checksum, the site's article parser) and written
 * atomically; local files absent from the bucket are deleted only with
 * --delete. A bad object is reported and leaves its local file as it was.
 * Local checksums come from a size+mtime cache (localChecksums.ts), so
 * unchanged articles are neither downloaded nor read. With --snapshot a
 * runner with an empty content/ takes most articles from the bucket's packed
 * state (snapshot.ts) instead of one GET each, and keeps that state current.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { FeltError, describeError } from '../shared/errors.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../shared/types.ts';
import { parseArticleBytes } from '../site/content/parseArticle.ts';
import { SLUG_PATTERN } from '../shared/names.ts';
import { removeLeftoverTemporaries, writeFileAtomic } from '../shared/atomicWrite.ts';
import { loadProject } from './project.ts';
import { createReporter, type Reporter } from './report.ts';
import { md5Base64 } from './storage/checksum.ts';
import { bucketName, openStorage, type BucketEnv, type StorageChoice } from './storage/index.ts';
import type { Bucket, ObjectInfo } from './storage/types.ts';
import { LocalChecksums } from './localChecksums.ts';
import { RESTORE_ABOVE, isStale, readManifest, readPack, writeSnapshot } from './snapshot.ts';

export interface PullOptions {
  contentDir: string;
  env?: BucketEnv;
  locales?: string[];
  delete?: boolean;
  dryRun?: boolean;
  storage?: StorageChoice;
  /** Restore from and keep the bucket's packed state (state/): see snapshot.ts. */
  snapshot?: boolean;
  reporter?: Reporter;
}

export interface PullResult {
  bucket: string;
  download: string[];
  unchanged: number;
  remove: string[];
  /** Local files not in the bucket, kept because --delete was not given. */
  extra: string[];
  failed: { name: string; reason: string }[];
  dryRun: boolean;
  /** Local files read to learn their checksum (the others were answered by the size+mtime cache). */
  hashedLocally: number;
  /** Of `download`, the articles taken from the bucket's packed state instead of one GET each. */
  fromSnapshot: number;
  /** Locales whose packed state this pull rewrote. */
  snapshotWritten: string[];
}

export function checkLocales(values: string[] | undefined): readonly ContentLocale[] {
  if (!values?.length) return CONTENT_LOCALES;
  for (const value of values) {
    if (!(CONTENT_LOCALES as readonly string[]).includes(value))
      throw new FeltError('BAD_OPTION', `--locale must be one of ${CONTENT_LOCALES.join(', ')}, not "${value}"`);
  }
  return values as ContentLocale[];
}

export async function pull(options: PullOptions): Promise<PullResult> {
  const reporter = options.reporter ?? createReporter();
  const locales = checkLocales(options.locales);
  const project = await loadProject(options.contentDir);
  const bucket = openStorage(project, options.storage).bucket(bucketName(project.settings.storage.prefix, options.env ?? 'prod'));
  if (!(await bucket.exists()))
    throw new FeltError('BUCKET_MISSING', `${bucket.location} does not exist`, {
      hint: options.env === 'dev' ? 'generate articles first' : 'publish articles first, or pull --env dev',
    });
  const result: PullResult = {
    bucket: bucket.location,
    download: [],
    unchanged: 0,
    remove: [],
    extra: [],
    failed: [],
    dryRun: Boolean(options.dryRun),
    hashedLocally: 0,
    fromSnapshot: 0,
    snapshotWritten: [],
  };
  const checksums = await LocalChecksums.open(project.contentDir);
  const jobs: { locale: ContentLocale; slug: string; name: string; md5: string; packed?: Buffer }[] = [];
  const listings = new Map<ContentLocale, ObjectInfo[]>();
  for (const locale of locales) {
    const folder = path.join(project.contentDir, 'articles', locale);
    const local = await checksums.folder(folder, locale);
    const remote = new Set<string>();
    const listing: ObjectInfo[] = [];
    listings.set(locale, listing);
    for (const object of await bucket.list(`articles/${locale}/`)) {
      const slug = path.posix.basename(object.name, '.md');
      if (object.name !== `articles/${locale}/${slug}.md` || !SLUG_PATTERN.test(slug)) {
        result.failed.push({ name: object.name, reason: 'not an article name (articles/{locale}/{slug}.md with a lowercase kebab-case slug); skipped' });
        continue;
      }
      remote.add(slug);
      listing.push(object);
      if (local.get(slug) === object.md5) result.unchanged++;
      else jobs.push({ locale, slug, name: object.name, md5: object.md5 });
    }
    for (const slug of local.keys()) if (!remote.has(slug)) (options.delete ? result.remove : result.extra).push(path.join(folder, `${slug}.md`));
  }
  result.hashedLocally = checksums.hashed;
  result.download = jobs.map((j) => j.name);
  reporter.print(
    `plan: ${jobs.length} to download, ${result.unchanged} unchanged, ${result.remove.length} to delete${result.extra.length ? `, ${result.extra.length} local only (kept; --delete removes them)` : ''} from ${bucket.location}`,
  );
  if (options.dryRun) {
    for (const name of result.download) reporter.print(`download ${name}`);
    for (const file of result.remove) reporter.print(`delete   ${file}`);
    return result;
  }
  // A pull killed mid-write leaves its temporary files; this one clears them from the folders it writes.
  for (const locale of locales) {
    const folder = path.join(project.contentDir, 'articles', locale);
    for (const name of await removeLeftoverTemporaries(folder)) reporter.print(`removed ${path.join(folder, name)}, left by an interrupted write`);
  }
  const unusable = options.snapshot ? await takeFromSnapshots(jobs, locales, bucket, reporter, result) : new Set<string>();
  const progress = reporter.progress('pull', jobs.length + result.remove.length);
  const limit = pLimit(16);
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const target = path.join(project.contentDir, 'articles', job.locale, `${job.slug}.md`);
        try {
          const data = job.packed ?? (await bucket.read(job.name));
          if (md5Base64(data) !== job.md5) throw new Error('checksum differs from the bucket listing; it changed during the pull, run it again');
          const { problems } = parseArticleBytes(data, target, job.locale);
          if (problems.length) throw new Error(`invalid article: ${problems.map((p) => `${p.field ? `${p.field}: ` : ''}${p.message}`).join('; ')}`);
          await writeFileAtomic(target, data);
          await checksums.wrote(target, job.locale, job.slug, job.md5);
          progress.tick(`wrote ${target}`);
        } catch (error) {
          result.failed.push({ name: job.name, reason: error instanceof Error ? error.message : String(error) });
          result.download = result.download.filter((n) => n !== job.name);
          progress.tick(`failed ${job.name}`);
        }
      }),
    ),
  );
  for (const file of result.remove) {
    await rm(file, { force: true });
    checksums.forget(path.basename(path.dirname(file)), path.basename(file, '.md'));
    progress.tick(`deleted ${file}`);
  }
  progress.done();
  await checksums.save();
  if (options.snapshot) await keepSnapshots(listings, unusable, bucket, project.contentDir, reporter, result);
  return result;
}

/** A runner with many articles to fetch takes those the packed state has (same MD5) from it: one GET per locale instead of one per article. */
async function takeFromSnapshots(
  jobs: { locale: ContentLocale; slug: string; md5: string; packed?: Buffer }[],
  locales: readonly ContentLocale[],
  bucket: Bucket,
  reporter: Reporter,
  result: PullResult,
): Promise<Set<string>> {
  const unusable = new Set<string>();
  for (const locale of locales) {
    const mine = jobs.filter((j) => j.locale === locale);
    if (mine.length <= RESTORE_ABOVE) continue;
    try {
      const manifest = await readManifest(bucket, locale);
      if (!manifest) {
        reporter.note(
          `felt: no state snapshot for ${locale} in ${bucket.location}; downloading ${mine.length} articles one by one (the end of this pull writes one)`,
        );
        continue;
      }
      const packed = await readPack(bucket, manifest, new Map(mine.map((j) => [j.slug, j.md5])));
      for (const job of mine) job.packed = packed.get(job.slug);
      result.fromSnapshot += packed.size;
    } catch (error) {
      if (!(error instanceof FeltError)) throw error;
      reporter.note(`felt: ${describeError(error)}`);
      unusable.add(locale);
    }
  }
  return unusable;
}

/** Rewrites a locale's packed state when it has fallen behind the bucket (or there is none), and only for a locale pulled whole. */
async function keepSnapshots(
  listings: Map<ContentLocale, ObjectInfo[]>,
  unusable: ReadonlySet<string>,
  bucket: Bucket,
  contentDir: string,
  reporter: Reporter,
  result: PullResult,
) {
  for (const [locale, listing] of listings) {
    if (result.failed.some((f) => f.name.startsWith(`articles/${locale}/`))) continue;
    let manifest;
    try {
      // A state found damaged while restoring is rewritten whatever its manifest says.
      if (!unusable.has(locale)) manifest = await readManifest(bucket, locale);
    } catch (error) {
      if (!(error instanceof FeltError)) throw error;
    }
    if (!isStale(manifest, listing)) continue;
    try {
      await writeSnapshot(bucket, locale, listing, (object) => path.join(contentDir, 'articles', locale, path.posix.basename(object.name)));
    } catch (error) {
      // The articles are pulled; only the next fresh runner's shortcut is missing, so this is a note, not a failure.
      if (!(error instanceof FeltError)) throw error;
      reporter.note(`felt: state snapshot of ${locale} not written: ${describeError(error)}`);
      continue;
    }
    result.snapshotWritten.push(locale);
    reporter.print(`state snapshot of ${locale} written to ${bucket.location}/state/ (${listing.length} articles)`);
  }
}
