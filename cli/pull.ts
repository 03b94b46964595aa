/**
 * `felt pull`: syncs a bucket's articles into content/articles/{locale}/.
 * Only objects whose MD5 differs from the local file are downloaded; each is
 * checked (a safe name, the checksum, the site's article parser) and written
 * atomically; local files absent from the bucket are deleted only with
 * --delete. A bad object is reported and leaves its local file as it was.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { FeltError } from '../shared/errors.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../shared/types.ts';
import { parseArticleBytes } from '../site/content/parseArticle.ts';
import { SLUG_PATTERN } from '../shared/names.ts';
import { removeLeftoverTemporaries, writeFileAtomic } from '../shared/atomicWrite.ts';
import { loadProject } from './project.ts';
import { createReporter, type Reporter } from './report.ts';
import { md5Base64 } from './storage/checksum.ts';
import { bucketName, openStorage, type BucketEnv, type StorageChoice } from './storage/index.ts';
import { isPng, pictureObjectName } from './generate/images.ts';

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
  failed: { name: string; reason: string }[];
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
  const result: PullResult = { bucket: bucket.location, download: [], unchanged: 0, remove: [], extra: [], failed: [], dryRun: Boolean(options.dryRun) };
  const jobs: { locale: ContentLocale; slug: string; name: string; md5: string; picture?: boolean }[] = [];
  for (const locale of locales) {
    // generation.images: each article's cover picture, beside it in the bucket (cli/generate/images.ts).
    const pictures = path.join(project.contentDir, 'images', locale);
    const localPictures = await localChecksums(pictures, '.png');
    const remotePictures = new Set<string>();
    for (const object of await bucket.list(`images/${locale}/`)) {
      const slug = path.posix.basename(object.name, '.png');
      if (object.name !== pictureObjectName(locale, slug) || !SLUG_PATTERN.test(slug)) {
        result.failed.push({ name: object.name, reason: 'not a picture name (images/{locale}/{slug}.png); skipped' });
        continue;
      }
      remotePictures.add(slug);
      if (localPictures.get(slug) === object.md5) result.unchanged++;
      else jobs.push({ locale, slug, name: object.name, md5: object.md5, picture: true });
    }
    for (const slug of localPictures.keys())
      if (!remotePictures.has(slug)) (options.delete ? result.remove : result.extra).push(path.join(pictures, `${slug}.png`));
    const folder = path.join(project.contentDir, 'articles', locale);
    const local = await localChecksums(folder);
    const remote = new Set<string>();
    for (const object of await bucket.list(`articles/${locale}/`)) {
      const slug = path.posix.basename(object.name, '.md');
      if (object.name !== `articles/${locale}/${slug}.md` || !SLUG_PATTERN.test(slug)) {
        result.failed.push({ name: object.name, reason: 'not an article name (articles/{locale}/{slug}.md with a lowercase kebab-case slug); skipped' });
        continue;
      }
      remote.add(slug);
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
    return result;
  }
  // A pull killed mid-write leaves its temporary files; this one clears them from the folders it writes.
  for (const locale of locales) {
    const folder = path.join(project.contentDir, 'articles', locale);
    for (const name of await removeLeftoverTemporaries(folder)) reporter.print(`removed ${path.join(folder, name)}, left by an interrupted write`);
    const pictures = path.join(project.contentDir, 'images', locale);
    for (const name of await removeLeftoverTemporaries(pictures)) reporter.print(`removed ${path.join(pictures, name)}, left by an interrupted write`);
  }
  const progress = reporter.progress('pull', jobs.length + result.remove.length);
  const limit = pLimit(16);
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        const target = job.picture
          ? path.join(project.contentDir, 'images', job.locale, `${job.slug}.png`)
          : path.join(project.contentDir, 'articles', job.locale, `${job.slug}.md`);
        try {
          const data = await bucket.read(job.name);
          if (md5Base64(data) !== job.md5) throw new Error('checksum differs from the bucket listing; it changed during the pull, run it again');
          if (job.picture) {
            if (!isPng(data)) throw new Error('not a PNG picture');
          } else {
            const { problems } = parseArticleBytes(data, target, job.locale);
            if (problems.length) throw new Error(`invalid article: ${problems.map((p) => `${p.field ? `${p.field}: ` : ''}${p.message}`).join('; ')}`);
          }
          await writeFileAtomic(target, data);
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
    progress.tick(`deleted ${file}`);
  }
  progress.done();
  return result;
}

async function localChecksums(folder: string, extension = '.md'): Promise<Map<string, string>> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith(extension));
  const limit = pLimit(32);
  const sums = await Promise.all(
    names.map((name) => limit(async () => [name.slice(0, -extension.length), md5Base64(await readFile(path.join(folder, name)))] as const)),
  );
  return new Map(sums);
}
