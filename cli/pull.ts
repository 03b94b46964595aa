/**
 * `felt pull`: syncs a bucket's articles into content/articles/{locale}/.
 * Only objects whose MD5 differs from the local file are downloaded; each is
 * checked (a safe name, the checksum, the site's article parser) and written
 * atomically; local files absent from the bucket are deleted only with
 * --delete. A bad object (a bad name, over the size limit, not a valid
 * article) is skipped and reported and leaves its local file as it was; the
 * others are pulled (issue 17: one bad object must not fail every night).
 * The size limit is read from the listing, so an oversized object is never
 * downloaded.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { FeltError } from '../shared/errors.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../shared/types.ts';
import { LIMITS, tooLarge } from '../shared/limits.ts';
import { removeLeftoverTemporaries, writeFileAtomic } from '../shared/atomicWrite.ts';
import { articleObjectProblems, describeProblems } from './articleCheck.ts';
import { loadProject } from './project.ts';
import { createReporter, type Reporter } from './report.ts';
import { md5Base64 } from './storage/checksum.ts';
import { NOT_AN_ARTICLE_NAME, articleSlugOf, bucketName, openStorage, type BucketEnv, type StorageChoice } from './storage/index.ts';
import type { Bucket } from './storage/types.ts';
import { contentDirFor } from '../shared/contentOrigin.ts';
import { pullRetractions } from './pullRetractions.ts';

export interface PullOptions {
  contentDir: string;
  env?: BucketEnv;
  locales?: string[];
  delete?: boolean;
  dryRun?: boolean;
  storage?: StorageChoice;
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
  };
  const jobs: { locale: ContentLocale; slug: string; name: string; md5: string }[] = [];
  for (const locale of locales) {
    const folder = path.join(articlesRoot, 'articles', locale);
    const local = await localChecksums(folder);
    const remote = new Set<string>();
    for (const object of await bucket.list(`articles/${locale}/`)) {
      const slug = articleSlugOf(object.name, locale);
      if (!slug) {
        result.skipped.push({ name: object.name, reason: NOT_AN_ARTICLE_NAME });
        continue;
      }
      remote.add(slug);
      // Refused from the listing's size, before a byte of it is downloaded; the local file stays as it is.
      if (object.size > LIMITS.articleBytes) {
        result.skipped.push({ name: object.name, reason: `object ${tooLarge(object.size, LIMITS.articleBytes)} (see README, "Limits")` });
        continue;
      }
      if (local.get(slug) === object.md5) result.unchanged++;
      else jobs.push({ locale, slug, name: object.name, md5: object.md5 });
    }
    for (const slug of local.keys()) if (!remote.has(slug)) (options.delete ? result.remove : result.extra).push(path.join(folder, `${slug}.md`));
  }
  result.download = jobs.map((j) => j.name);
  reporter.print(
    `plan: ${jobs.length} to download, ${result.unchanged} unchanged, ${result.remove.length} to delete${result.extra.length ? `, ${result.extra.length} local only (kept; --delete removes them)` : ''} from ${bucket.location}`,
  );
  if (options.dryRun) {
    for (const name of result.download) reporter.print(`download ${name}`);
    for (const file of result.remove) reporter.print(`delete   ${file}`);
    await applyRetractions(result, options, bucket, articlesRoot, locales, reporter);
    return result;
  }
  // A pull killed mid-write leaves its temporary files; this one clears them from the folders it writes.
  for (const locale of locales) {
    const folder = path.join(articlesRoot, 'articles', locale);
    for (const name of await removeLeftoverTemporaries(folder)) reporter.print(`removed ${path.join(folder, name)}, left by an interrupted write`);
  }
  const progress = reporter.progress('pull', jobs.length + result.remove.length);
  const limit = pLimit(16);
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const target = path.join(articlesRoot, 'articles', job.locale, `${job.slug}.md`);
        const leaveOut = (list: PullResult['skipped'], reason: string) => {
          list.push({ name: job.name, reason });
          result.download = result.download.filter((n) => n !== job.name);
          progress.tick(`${list === result.skipped ? 'skipped' : 'failed'} ${job.name}`);
        };
        try {
          const data = await bucket.read(job.name);
          if (md5Base64(data) !== job.md5) throw new Error('checksum differs from the bucket listing; it changed during the pull, run it again');
          const problems = articleObjectProblems(data, target, job.locale, project);
          if (problems.length) return leaveOut(result.skipped, `invalid article: ${describeProblems(problems)}`);
          await writeFileAtomic(target, data);
          progress.tick(`wrote ${target}`);
        } catch (error) {
          leaveOut(result.failed, error instanceof Error ? error.message : String(error));
        }
      }),
    ),
  );
  for (const file of result.remove) {
    await rm(file, { force: true });
    progress.tick(`deleted ${file}`);
  }
  progress.done();
  await applyRetractions(result, options, bucket, articlesRoot, locales, reporter);
  return result;
}

async function localChecksums(folder: string): Promise<Map<string, string>> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.md'));
  const limit = pLimit(32);
  const sums = await Promise.all(names.map((name) => limit(async () => [name.slice(0, -3), md5Base64(await readFile(path.join(folder, name)))] as const)));
  return new Map(sums);
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
  // A retracted article's file is gone now, not "local only".
  result.extra = result.extra.filter((file) => !pulled.removed.includes(file));
}
