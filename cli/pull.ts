/**
 * `felt pull`: syncs a bucket's articles into content/articles/{locale}/.
 * Only objects whose MD5 differs from the local file are downloaded; each is
 * checked (a safe name, the checksum, the site's article parser) and written
 * atomically; local files absent from the bucket are deleted only with
 * --delete. A bad object (a bad name, over the size limit, not a valid
 * article) is skipped and reported and leaves its local file as it was; the
 * others are pulled (issue 17: one bad object must not fail every night).
 * The size limit is checked on the listing, so an object listed as oversized
 * is never downloaded, and again while an object is read, so one whose
 * listing understates it is read no further than the limit (objectCheck.ts,
 * shared with publish).
 * Local checksums come from a size+mtime cache (localChecksums.ts), so
 * unchanged articles are neither downloaded nor read. With --snapshot a
 * runner with an empty content/ takes most articles from the bucket's packed
 * state (snapshot.ts) instead of one GET each, and keeps that state current.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { articleFile, articleFolder, displayPath } from '../shared/paths.ts';
import pLimit from 'p-limit';
import { environmentError } from '../shared/stageErrors.ts';
import { FeltError, describeError } from '../shared/errors.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../shared/types.ts';
import { LIMITS } from '../shared/limits.ts';
import { removeLeftoverTemporaries, writeFileAtomic } from '../shared/atomicWrite.ts';
import { listedTooLarge, readCheckedObject } from './objectCheck.ts';
import { loadProject } from './project.ts';
import { createReporter, type Reporter } from './report.ts';
import { NOT_AN_ARTICLE_NAME, articleSlugOf, bucketName, openStorage, type BucketEnv, type StorageChoice } from './storage/index.ts';
import type { Bucket, ObjectInfo } from './storage/types.ts';
import { contentDirFor } from '../shared/contentOrigin.ts';
import { pullRetractions } from './pullRetractions.ts';
import { LocalChecksums } from './localChecksums.ts';
import { RESTORE_ABOVE, isStale, readManifest, readPack, writeSnapshot } from './snapshot.ts';
import { pictureSlugOf } from './generate/images.ts';

export interface PullOptions {
  contentDir: string;
  env?: BucketEnv;
  locales?: string[];
  delete?: boolean;
  /** With delete: remove every local article when the bucket lists none (refused otherwise: see pull). */
  yes?: boolean;
  /** Replace (or with delete, remove) local files changed here since the last pull too; they are kept otherwise. */
  force?: boolean;
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
  /** Bad objects, left out (exit 2): a bad name, over the size limit, not a valid article. */
  skipped: { name: string; reason: string }[];
  /** Objects that could not be pulled this time (a storage failure, changed during the pull): exit 1. */
  failed: { name: string; reason: string }[];
  /** Retraction records written into content/retracted/, and the article files they removed (cli/pullRetractions.ts). */
  retracted?: { records: string[]; removed: string[]; unretracted: string[] };
  dryRun: boolean;
  /** Local files read to learn their checksum (the others were answered by the size+mtime cache). */
  hashedLocally: number;
  /** Of `download`, the articles taken from the bucket's packed state instead of one GET each. */
  fromSnapshot: number;
  /** Locales whose packed state this pull rewrote. */
  snapshotWritten: string[];
}

const CHANGED_HERE = 'changed here since the last pull';

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
  // Dev articles never land in content/ (issue 17.2): a later production build cannot pick them up.
  const articlesRoot = contentDirFor(project.contentDir, options.env ?? 'prod');
  const result: PullResult = {
    bucket: bucket.location,
    download: [],
    unchanged: 0,
    remove: [],
    extra: [],
    skipped: [],
    failed: [],
    dryRun: Boolean(options.dryRun),
    hashedLocally: 0,
    fromSnapshot: 0,
    snapshotWritten: [],
  };
  const checksums = await LocalChecksums.open(articlesRoot);
  const jobs: { locale: ContentLocale; slug: string; name: string; md5: string; packed?: Buffer; picture?: boolean }[] = [];
  const listings = new Map<ContentLocale, ObjectInfo[]>();
  // generation.images: each article's cover picture, beside it in the bucket (cli/generate/images.ts). Production's only:
  // a preview builds dev's articles with the generated covers.
  const withPictures = (options.env ?? 'prod') === 'prod';
  // Every listing is started at once, and the local checksums (a stat per file) are taken while the bucket
  // answers: each page is a round trip, and 100,000 articles are 100 pages. Awaited below; until then a
  // failed listing must not count as unhandled.
  const remote = Promise.all(
    locales.map((locale) => Promise.all([withPictures ? bucket.list(`images/${locale}/`) : Promise.resolve([]), bucket.list(`articles/${locale}/`)])),
  );
  remote.catch(() => undefined);
  const local: { pictures: Map<string, string>; articles: Map<string, string> }[] = [];
  for (const locale of locales) {
    const pictures = withPictures ? await checksums.folder(path.join(articlesRoot, 'images', locale), `images/${locale}`, '.png') : new Map<string, string>();
    local.push({ pictures, articles: await checksums.folder(articleFolder(articlesRoot, locale), locale) });
  }
  const listed = await remote;
  // A local file the same as the bucket's copy is unchanged. One changed here since it last was (by hand, or by
  // felt dev's title editor) is kept and said, as publish keeps what production changed: without --force a pull
  // never overwrites or deletes an edit it did not make. True when the object needs no download.
  const keptHere = (group: string, slug: string, localMd5: string | undefined, object: ObjectInfo): boolean => {
    if (localMd5 === object.md5) {
      result.unchanged++;
      checksums.matches(group, slug, localMd5);
      return true;
    }
    if (localMd5 === undefined || options.force || !checksums.changedHere(group, slug, localMd5)) return false;
    result.skipped.push({ name: object.name, reason: `${CHANGED_HERE}; kept as it is here (--force replaces it with the bucket's)` });
    return true;
  };
  const localOnly = (group: string, slug: string, localMd5: string, file: string) => {
    if (!options.delete) result.extra.push(file);
    else if (options.force || !checksums.changedHere(group, slug, localMd5)) result.remove.push(file);
    else result.skipped.push({ name: file, reason: `${CHANGED_HERE}, and the bucket no longer has it; kept (--force deletes it)` });
  };
  // What the bucket lists, and the local folders --delete would empty were it to list nothing.
  let listedArticles = 0;
  const emptied: string[] = [];
  for (const [i, locale] of locales.entries()) {
    const [pictureObjects, articleObjects] = listed[i]!;
    if (withPictures) {
      const pictures = path.join(articlesRoot, 'images', locale);
      const localPictures = local[i]!.pictures;
      const remotePictures = new Set<string>();
      for (const object of pictureObjects) {
        const slug = pictureSlugOf(object.name, locale);
        if (!slug) {
          result.skipped.push({ name: object.name, reason: 'not a picture name (images/{locale}/{slug}.png)' });
          continue;
        }
        remotePictures.add(slug);
        // As an article's: refused from the listing's size, before a byte of it is downloaded.
        if (object.size > LIMITS.pictureBytes) {
          result.skipped.push({ name: object.name, reason: listedTooLarge(object.size, LIMITS.pictureBytes) });
          continue;
        }
        if (!keptHere(`images/${locale}`, slug, localPictures.get(slug), object))
          jobs.push({ locale, slug, name: object.name, md5: object.md5, picture: true });
      }
      for (const [slug, md5] of localPictures) if (!remotePictures.has(slug)) localOnly(`images/${locale}`, slug, md5, path.join(pictures, `${slug}.png`));
    }
    const folder = articleFolder(articlesRoot, locale);
    const localArticles = local[i]!.articles;
    const remoteArticles = new Set<string>();
    const listing: ObjectInfo[] = [];
    listings.set(locale, listing);
    for (const object of articleObjects) {
      const slug = articleSlugOf(object.name, locale);
      if (!slug) {
        result.skipped.push({ name: object.name, reason: NOT_AN_ARTICLE_NAME });
        continue;
      }
      remoteArticles.add(slug);
      // Refused from the listing's size, before a byte of it is downloaded; the local file stays as it is.
      if (object.size > LIMITS.articleBytes) {
        result.skipped.push({ name: object.name, reason: listedTooLarge(object.size, LIMITS.articleBytes) });
        continue;
      }
      listing.push(object);
      if (!keptHere(locale, slug, localArticles.get(slug), object)) jobs.push({ locale, slug, name: object.name, md5: object.md5 });
    }
    for (const [slug, md5] of localArticles) if (!remoteArticles.has(slug)) localOnly(locale, slug, md5, path.join(folder, `${slug}.md`));
    listedArticles += articleObjects.length;
    if (localArticles.size > 0) emptied.push(`${localArticles.size} in ${displayPath(folder)}`);
  }
  result.hashedLocally = checksums.hashed;
  result.download = jobs.map((j) => j.name);
  const changedHere = result.skipped.filter((s) => s.reason.startsWith(CHANGED_HERE)).length;
  reporter.print(
    `plan: ${jobs.length} to download, ${result.unchanged} unchanged, ${result.remove.length} to delete${result.extra.length ? `, ${result.extra.length} local only (kept; --delete removes them)` : ''}${changedHere ? `, ${changedHere} changed here (kept; --force replaces them)` : ''} from ${bucket.location}`,
  );
  // A listing with no article in any locale pulled is more often a wrong or empty bucket, or a proxy's page read as
  // "no objects", than a production that really deleted everything: --delete would then empty content/. Other
  // deletions go through, as before: a locale production does not have, articles it dropped (unlike a deploy's
  // deletions, they leave the bucket, the articles' home, whole).
  const emptyListing =
    options.delete && listedArticles === 0 && emptied.length
      ? new FeltError('EMPTY_LISTING', `--delete would remove every local article (${emptied.join('; ')}): ${bucket.location} lists none`, {
          hint: 'check the bucket and --env, then rerun with --yes if it really holds no articles',
        })
      : undefined;
  if (options.dryRun) {
    for (const name of result.download) reporter.print(`download ${name}`);
    for (const file of result.remove) reporter.print(`delete   ${file}`);
    if (emptyListing && !options.yes) reporter.note(`warning: ${emptyListing.message}; a real run needs --yes`);
    await applyRetractions(result, options, bucket, articlesRoot, locales, reporter);
    return result;
  }
  if (emptyListing && !options.yes) throw emptyListing;
  // A pull killed mid-write leaves its temporary files; this one clears them from the folders it writes.
  for (const locale of locales) {
    const folder = articleFolder(articlesRoot, locale);
    for (const name of await removeLeftoverTemporaries(folder)) reporter.print(`removed ${path.join(folder, name)}, left by an interrupted write`);
    const pictures = path.join(project.contentDir, 'images', locale);
    for (const name of await removeLeftoverTemporaries(pictures)) reporter.print(`removed ${path.join(pictures, name)}, left by an interrupted write`);
  }
  const unusable = options.snapshot ? await takeFromSnapshots(jobs, locales, listings, bucket, reporter, result) : new Set<string>();
  const progress = reporter.progress('pull', jobs.length + result.remove.length);
  const limit = pLimit(16);
  // Taken out of `download` once, after the loop: filtered out one at a time, a pull whose every object was refused
  // (a bucket of articles a newer felt finds invalid) compared each name with every other: 30,000 names took 7 s
  // so, 7 ms at once (a script doing both on this project's machine), and the time grows as the square.
  const leftOut = new Set<string>();
  // A full, read-only or refused disk fails every write after the first the same way: the pull stops there, with one
  // line naming the folder, where it printed a failed line for each object left and then "no space left on the disk".
  let machineFailure: FeltError | undefined;
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        if (machineFailure) return;
        const target = job.picture ? path.join(articlesRoot, 'images', job.locale, `${job.slug}.png`) : articleFile(articlesRoot, job.locale, job.slug);
        const leaveOut = (list: PullResult['skipped'], reason: string) => {
          list.push({ name: job.name, reason });
          leftOut.add(job.name);
          progress.tick(`${list === result.skipped ? 'skipped' : 'failed'} ${job.name}`);
        };
        try {
          const kind = job.picture ? { picture: true as const } : { shownAs: target, locale: job.locale, project };
          const checked = await readCheckedObject(bucket, job, kind, job.packed);
          // A bad object is skipped, as one over the limit in the listing is; one changed while it was read failed this time only.
          if ('problem' in checked) return leaveOut(checked.changed ? result.failed : result.skipped, checked.problem);
          const { data } = checked;
          await writeFileAtomic(target, data, LocalChecksums.settle);
          await checksums.wrote(target, job.picture ? `images/${job.locale}` : job.locale, job.slug, job.md5);
          progress.tick(`wrote ${target}`);
        } catch (error) {
          const machine = environmentError(error, { name: 'pulling articles', path: path.dirname(target) });
          if (!machine) return leaveOut(result.failed, error instanceof Error ? error.message : String(error));
          // The jobs still queued see it and end at once (clearQueue would leave their promises, and the pull, unsettled).
          machineFailure ??= machine;
        }
      }),
    ),
  );
  if (machineFailure) {
    // What was written is whole and stays; its checksums are kept if the disk still takes them.
    await checksums.save().catch(() => undefined);
    progress.done();
    throw machineFailure;
  }
  if (leftOut.size > 0) result.download = result.download.filter((name) => !leftOut.has(name));
  for (const file of result.remove) {
    await rm(file, { force: true });
    forgetFile(checksums, file);
    progress.tick(`deleted ${file}`);
  }
  progress.done();
  await checksums.save();
  if (options.snapshot) await keepSnapshots(listings, unusable, bucket, articlesRoot, reporter, result);
  await applyRetractions(result, options, bucket, articlesRoot, locales, reporter);
  if (result.retracted?.removed.length) {
    for (const file of result.retracted.removed) forgetFile(checksums, file);
    await checksums.save();
  }
  return result;
}

/** A runner with many articles to fetch takes those the packed state has (same MD5) from it: one GET per locale instead of one per article. */
async function takeFromSnapshots(
  jobs: { locale: ContentLocale; slug: string; md5: string; packed?: Buffer; picture?: boolean }[],
  locales: readonly ContentLocale[],
  listings: ReadonlyMap<ContentLocale, readonly ObjectInfo[]>,
  bucket: Bucket,
  reporter: Reporter,
  result: PullResult,
): Promise<Set<string>> {
  const unusable = new Set<string>();
  const listed = (locale: ContentLocale) => listings.get(locale)?.length ?? 0;
  for (const locale of locales) {
    // Articles only: a picture shares its article's slug, and the packs hold articles.
    const mine = jobs.filter((j) => j.locale === locale && !j.picture);
    if (mine.length <= RESTORE_ABOVE) continue;
    try {
      const manifest = await readManifest(bucket, locale);
      if (!manifest) {
        reporter.note(
          `felt: no state snapshot for ${locale} in ${bucket.location}; downloading ${mine.length} articles one by one (the end of this pull writes one)`,
        );
        continue;
      }
      const packed = await readPack(bucket, manifest, new Map(mine.map((j) => [j.slug, j.md5])), listed(locale));
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
  // A skipped object (invalid, issue 17) was never written locally, so it cannot be packed: the state holds what content/ holds.
  const skipped = new Set(result.skipped.map((s) => s.name));
  for (const [locale, everything] of listings) {
    if (result.failed.some((f) => f.name.startsWith(`articles/${locale}/`))) continue;
    const listing = everything.filter((object) => !skipped.has(object.name));
    let manifest;
    try {
      // A state found damaged while restoring is rewritten whatever its manifest says.
      if (!unusable.has(locale)) manifest = await readManifest(bucket, locale);
    } catch (error) {
      if (!(error instanceof FeltError)) throw error;
    }
    if (!isStale(manifest, listing)) continue;
    try {
      await writeSnapshot(bucket, locale, listing, (object) => path.join(articleFolder(contentDir, locale), path.posix.basename(object.name)));
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

/** Production's retractions only: the dev bucket has none, and content.dev/ is never built as a site. */
async function applyRetractions(
  result: PullResult,
  options: PullOptions,
  bucket: Bucket,
  articlesRoot: string,
  locales: readonly ContentLocale[],
  reporter: Reporter,
): Promise<void> {
  if ((options.env ?? 'prod') !== 'prod') return;
  const pulled = await pullRetractions(bucket, articlesRoot, locales, { dryRun: Boolean(options.dryRun), deleteStale: Boolean(options.delete) }, reporter);
  result.retracted = { records: pulled.records, removed: pulled.removed, unretracted: pulled.unretracted };
  result.failed.push(...pulled.failed);
  // A retracted article's file is gone now, not "local only", nor kept as changed here.
  const removed = new Set(pulled.removed);
  result.extra = result.extra.filter((file) => !removed.has(file));
  result.skipped = result.skipped.filter((item) => !removed.has(item.name));
}

/** A removed file's entries in the checksum cache: `<locale>/<slug>.md` of an article, `images/<locale>/<slug>.png` of a picture. */
function forgetFile(checksums: LocalChecksums, file: string): void {
  const folder = path.dirname(file);
  const picture = path.basename(path.dirname(folder)) === 'images';
  const group = picture ? `images/${path.basename(folder)}` : path.basename(folder);
  checksums.forget(group, path.basename(file, path.extname(file)));
}
