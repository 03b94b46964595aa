/**
 * `felt publish`: promotes articles from the dev bucket to production. The
 * plan (new, changed, unchanged by MD5, conflicts, deletions) is printed
 * first; production is written only with --yes or a confirmation on a
 * terminal; unchanged objects are not copied.
 *
 * Nothing invalid is promoted (issue 17): each object to publish is checked
 * as `felt check` checks an article file (its name, its size from the
 * listing and again while it is read, its MD5, then articleCheck.ts: UTF-8,
 * frontmatter, fields, author, category; objectCheck.ts, shared with pull),
 * and the bytes checked are the bytes written, so a dev object changed
 * meanwhile cannot slip through. A bad one is skipped and reported; the
 * others are published; the command then exits 2 (done with skipped items).
 *
 * Production edits are kept: the publish record (publishRecord.ts) says what
 * publish wrote last, so an object changed or deleted in production since
 * is a conflict, never overwritten or brought back without --force. Each
 * write carries the production generation seen in the plan, so an object
 * changed after the plan is not overwritten either.
 *
 * Link order (issue 14): new articles first (nothing links to them yet),
 * then changed ones (which may now link to the new), deletions last and
 * only when every upload went through, so a published article never links
 * to one not yet there or already gone.
 */
import pLimit from 'p-limit';
import { FeltError } from '../shared/errors.ts';
import type { ContentLocale } from '../shared/types.ts';
import { loadProject, type Project } from './project.ts';
import { createReporter, plural, type Progress, type Reporter } from './report.ts';
import { ARTICLE_CONTENT_TYPE, NOT_AN_ARTICLE_NAME, articleSlugOf, bucketName, openStorage, removeLeftoversIn, type StorageChoice } from './storage/index.ts';
import { isPreconditionFailed } from './storage/errors.ts';
import type { Bucket, ObjectInfo } from './storage/types.ts';
import { compareNames } from './storage/nameRanges.ts';
import { checkLocales } from './pull.ts';
import { readCheckedObject } from './objectCheck.ts';
import { PUBLISH_RECORD, readPublishRecord, updatePublishRecord, type PublishRecord, type RecordEntry } from './publishRecord.ts';
import { pictureSlugOf } from './generate/images.ts';

export interface PublishOptions {
  contentDir: string;
  locales?: string[];
  slugs?: string[];
  all?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  /** Overwrite or bring back what was changed or deleted in production since felt published it. */
  force?: boolean;
  /** Delete from production the articles felt published that are no longer in dev. */
  delete?: boolean;
  /** Asks the operator on a terminal; absent when there is none. */
  confirm?: (question: string) => Promise<boolean>;
  storage?: StorageChoice;
  reporter?: Reporter;
}

export type PublishState = 'new' | 'changed' | 'unchanged' | 'conflict' | 'delete';

export interface PublishItem {
  name: string;
  state: PublishState;
  /** Production generation when planned ("0": absent): the precondition of the write or deletion. */
  generation: string;
  /** For a conflict: what production did since felt published. */
  reason?: string;
}

export interface PublishResult {
  source: string;
  target: string;
  plan: PublishItem[];
  written: boolean;
  /** Written to production (sorted; they were written new first, then changed). */
  copied: string[];
  deleted: string[];
  /** Invalid objects and conflicts, left out (exit 2). */
  skipped: { name: string; reason: string }[];
  failed: { name: string; reason: string }[];
}

/** A dev object that passed the checks: the very bytes to write. */
interface Checked {
  info: ObjectInfo;
  data: Buffer;
}

export async function publish(options: PublishOptions): Promise<PublishResult> {
  const reporter = options.reporter ?? createReporter();
  if (!options.all && !options.slugs?.length) throw new FeltError('BAD_OPTION', 'say what to publish: --slug SLUG (repeatable) or --all');
  // Both given, the slugs won without a word: an operator who added --all to be sure published only the few named.
  if (options.all && options.slugs?.length)
    throw new FeltError('BAD_OPTION', '--all and --slug ask for different things', {
      hint: 'give --all for every article of the dev bucket, or --slug for the ones named',
    });
  const locales = checkLocales(options.locales);
  const project = await loadProject(options.contentDir);
  const storage = openStorage(project, options.storage);
  const dev = storage.bucket(bucketName(project.settings.storage.prefix, 'dev'));
  const prod = storage.bucket(bucketName(project.settings.storage.prefix, 'prod'));
  const { plan, invalid, checked, adopt, productionOnly, record } = await makePublishPlan(dev, prod, locales, options, project);
  const byState = (state: PublishState) => plan.filter((i) => i.state === state);
  const conflicts = byState('conflict').map((i) => ({ name: i.name, reason: `conflict: ${i.reason}; kept as production has it (--force overrides)` }));
  const skipped = [...invalid, ...conflicts].sort((a, b) => a.name.localeCompare(b.name));
  const result: PublishResult = { source: dev.location, target: prod.location, plan, written: false, copied: [], deleted: [], skipped, failed: [] };
  for (const item of plan) if (item.state !== 'unchanged') reporter.print(`${item.state.padEnd(9)} ${item.name}${item.reason ? `: ${item.reason}` : ''}`);
  const extras = [
    conflicts.length ? `${conflicts.length} conflicts (kept as production has them; --force overwrites)` : '',
    invalid.length ? `${invalid.length} invalid (skipped)` : '',
    byState('delete').length ? `${byState('delete').length} to delete` : '',
    productionOnly
      ? `${productionOnly} only in production (kept${options.delete ? ', not published by felt' : '; --delete removes those felt published'})`
      : '',
  ].filter(Boolean);
  reporter.print(
    `plan: ${byState('new').length} new, ${byState('changed').length} changed, ${byState('unchanged').length} unchanged${extras.map((e) => `, ${e}`).join('')} (${dev.location} → ${prod.location})`,
  );
  // New, then changed, then deletions: each phase starts when the one before has finished.
  const uploadPhases = [byState('new'), byState('changed')];
  const deletions = byState('delete');
  const todo = byState('new').length + byState('changed').length + deletions.length;
  if (!todo || options.dryRun) return result;
  if (!options.yes) {
    const question = `Write ${plural(todo, 'article')} to production ${prod.location}? [y/N] `;
    if (!options.confirm)
      throw new FeltError('CONFIRMATION_REQUIRED', `production not written: ${plural(todo, 'article')} would change`, {
        hint: 'check the plan above and rerun with --yes',
      });
    if (!(await options.confirm(question))) throw new FeltError('NOT_CONFIRMED', 'production not written: not confirmed');
  }
  if (!(await prod.exists())) await prod.create();
  // What a killed publish left half-written in production (a folder bucket's temporaries): cleared by the next
  // publish that writes, once it has its yes, never by one that only shows its plan or is answered no.
  else await removeLeftoversIn(prod, [...locales.flatMap((l) => [`articles/${l}/`, `images/${l}/`]), PUBLISH_RECORD], (line) => reporter.note(line));
  result.written = true;
  const progress = reporter.progress('publish', todo);
  // Unchanged objects the record does not know as they are (published before it existed) are adopted as they are.
  const recorded = new Map<string, RecordEntry | undefined>(adopt);
  try {
    for (const phase of uploadPhases) {
      await runEach(phase, progress, result, async (item) => {
        const { info, data } = checked.get(item.name)!;
        const written = await prod.write(item.name, data, {
          contentType: info.contentType ?? ARTICLE_CONTENT_TYPE,
          cacheControl: info.cacheControl,
          metadata: info.metadata,
          ifGenerationMatch: item.generation,
        });
        result.copied.push(item.name);
        recorded.set(item.name, { generation: written.generation, md5: written.md5 });
        return `copied ${item.name}`;
      });
    }
    if (result.failed.length) {
      for (const item of deletions) {
        result.failed.push({ name: item.name, reason: 'not deleted: an upload of this publish failed, and a changed article may still link to it' });
        progress.tick(`held back ${item.name}`);
      }
    } else {
      await runEach(deletions, progress, result, async (item) => {
        await prod.delete(item.name, { ifGenerationMatch: item.generation });
        result.deleted.push(item.name);
        recorded.set(item.name, undefined);
        return `deleted ${item.name}`;
      });
    }
  } finally {
    progress.done();
    await updatePublishRecord(prod, recorded, record);
  }
  result.copied.sort();
  result.deleted.sort();
  return result;
}

async function runEach(items: PublishItem[], progress: Progress, result: PublishResult, work: (item: PublishItem) => Promise<string>): Promise<void> {
  const limit = pLimit(8);
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        try {
          progress.tick(await work(item));
        } catch (error) {
          const reason = isPreconditionFailed(error)
            ? 'changed in production since the plan was made; run publish again'
            : error instanceof Error
              ? error.message
              : String(error);
          result.failed.push({ name: item.name, reason });
          progress.tick(`failed ${item.name}: ${reason}`);
        }
      }),
    ),
  );
}

/**
 * Why a dev article or picture may not be published, or its checked bytes (objectCheck.ts): its size from the
 * listing before any download, then again while it is read (a listing can understate it), its MD5, its content.
 */
async function checkObject(dev: Bucket, object: ObjectInfo, locale: ContentLocale, project: Project, picture = false): Promise<{ problem: string } | Checked> {
  const checked = await readCheckedObject(dev, object, picture ? { picture } : { shownAs: object.name, locale, project });
  return 'problem' in checked ? checked : { info: object, data: checked.data };
}

interface Plan {
  plan: PublishItem[];
  /** Objects that fail the checks: never written. */
  invalid: { name: string; reason: string }[];
  checked: Map<string, Checked>;
  /** Record entries for unchanged objects the record does not describe as they are. */
  adopt: Map<string, RecordEntry>;
  /** Production articles in scope that dev does not have and that are not deleted. */
  productionOnly: number;
  /** The publish record as the plan read it (absent when production does not exist yet). */
  record: PublishRecord | undefined;
}

async function makePublishPlan(dev: Bucket, prod: Bucket, locales: readonly ContentLocale[], options: PublishOptions, project: Project): Promise<Plan> {
  if (!(await dev.exists()))
    throw new FeltError('BUCKET_MISSING', `the dev bucket ${dev.location} does not exist`, {
      hint: 'generate articles first (felt generate), or check --storage',
    });
  const prodExists = await prod.exists();
  // The record is read while the buckets are listed: at 100,000 articles it is a 12 MB download and parse
  // that the listings (200 pages) waited for.
  const [read, listings] = await Promise.all([prodExists ? readPublishRecord(prod) : undefined, listEverything(dev, prodExists ? prod : undefined, locales)]);
  const record = read?.objects;
  const { slugs, force } = options;
  const result: Plan = { plan: [], invalid: [], checked: new Map(), adopt: new Map(), productionOnly: 0, record: read };
  const found = new Set<string>();
  const limit = pLimit(8);
  for (const [i, locale] of locales.entries()) {
    const { devArticles: source, prodArticles, devPictures: devPictureList, prodPictures } = listings[i]!;
    const target = new Map<string, ObjectInfo>(prodArticles.map((o) => [o.name, o]));
    const wanted = slugs ? new Set(slugs) : undefined;
    const inDev = new Set<string>();
    const candidates: { object: ObjectInfo; item: PublishItem }[] = [];
    for (const object of source) {
      const slug = articleSlugOf(object.name, locale);
      if (!slug) {
        // With named slugs, only those are looked at; --all reports every stray object.
        if (!wanted) result.invalid.push({ name: object.name, reason: NOT_AN_ARTICLE_NAME });
        continue;
      }
      inDev.add(object.name);
      if (wanted && !wanted.has(slug)) continue;
      found.add(slug);
      candidates.push({ object, item: planItem(object, target.get(object.name), record, force) });
    }
    // Each object to write is read and checked; an unchanged one is not read (nothing is written for it), and
    // is planned here and now: at 100,000 articles a promise each through the limiter cost more than the plan.
    const toCheck = candidates.filter(({ object, item }) => {
      if (item.state === 'unchanged') {
        if (record?.get(object.name)?.generation !== item.generation) result.adopt.set(object.name, { generation: item.generation, md5: object.md5 });
        result.plan.push(item);
        return false;
      }
      if (item.state === 'conflict') {
        result.plan.push(item);
        return false;
      }
      return true;
    });
    await Promise.all(
      toCheck.map(({ object, item }) =>
        limit(async () => {
          const checked = await checkObject(dev, object, locale, project);
          if ('problem' in checked) return void result.invalid.push({ name: object.name, reason: checked.problem });
          result.checked.set(object.name, checked);
          result.plan.push(item);
        }),
      ),
    );
    for (const [name, current] of target) {
      const slug = articleSlugOf(name, locale);
      if (inDev.has(name) || !slug || (wanted && !wanted.has(slug))) continue;
      const published = record?.get(name);
      if (!options.delete || !published) {
        result.productionOnly++;
        continue;
      }
      found.add(slug);
      if (published.generation === current.generation || force) result.plan.push({ name, state: 'delete', generation: current.generation });
      else result.plan.push({ name, state: 'conflict', generation: current.generation, reason: 'changed in production since felt published it, not deleted' });
    }
    // generation.images: an article's cover picture goes with it (cli/generate/images.ts), checked as a PNG before it is written.
    const publishedPictures = new Map<string, ObjectInfo>(prodPictures.map((o) => [o.name, o]));
    const devPictures = devPictureList.filter((object) => {
      const slug = pictureSlugOf(object.name, locale);
      return slug !== undefined && (!wanted || wanted.has(slug));
    });
    await Promise.all(
      devPictures.map((object) =>
        limit(async () => {
          const item = planItem(object, publishedPictures.get(object.name), record, force);
          if (item.state === 'unchanged' || item.state === 'conflict') return void result.plan.push(item);
          const checked = await checkObject(dev, object, locale, project, true);
          if ('problem' in checked) return void result.invalid.push({ name: object.name, reason: checked.problem });
          result.checked.set(object.name, checked);
          result.plan.push(item);
        }),
      ),
    );
  }
  const missing = (slugs ?? []).filter((s) => !found.has(s));
  if (missing.length) throw new FeltError('NOT_IN_DEV', `not in ${dev.location}: ${missing.join(', ')}`, { hint: 'check the slugs and --locale' });
  // GCS's name order: localeCompare took three times as long on a plan of 100,000 articles (the same order for article names).
  result.plan.sort((a, b) => compareNames(a.name, b.name));
  return result;
}

/**
 * Every listing the plan needs, all started at once (two buckets, each locale's articles and pictures):
 * each page is a round trip to GCS, and one after the other 100,000 articles were 200 pages in a row.
 */
function listEverything(dev: Bucket, prod: Bucket | undefined, locales: readonly ContentLocale[]) {
  const none = Promise.resolve<ObjectInfo[]>([]);
  return Promise.all(
    locales.map(async (locale) => {
      const [devArticles, prodArticles, devPictures, prodPictures] = await Promise.all([
        dev.list(`articles/${locale}/`),
        prod ? prod.list(`articles/${locale}/`) : none,
        dev.list(`images/${locale}/`),
        prod ? prod.list(`images/${locale}/`) : none,
      ]);
      return { devArticles, prodArticles, devPictures, prodPictures };
    }),
  );
}

/**
 * One dev object against production and the record. Without a record entry
 * (never published, or published before the record existed) production is
 * compared by content only, as before the record.
 */
function planItem(object: ObjectInfo, current: ObjectInfo | undefined, record: Map<string, RecordEntry> | undefined, force = false): PublishItem {
  const generation = current?.generation ?? '0';
  if (current && current.md5 === object.md5) return { name: object.name, state: 'unchanged', generation };
  const published = record?.get(object.name);
  const reason = !published
    ? undefined
    : !current
      ? 'deleted in production since felt published it'
      : current.generation !== published.generation
        ? 'changed in production since felt published it'
        : undefined;
  if (reason && !force) return { name: object.name, state: 'conflict', generation, reason };
  return { name: object.name, state: current ? 'changed' : 'new', generation };
}
