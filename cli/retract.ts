/**
 * `felt retract`: takes an article back from production (issue 12, item 5).
 * The record goes to the production bucket first (who, when, why, and where
 * the old address should lead), then the article is deleted from production
 * and, unless --keep-dev, from the dev bucket, so the next `publish --all`
 * cannot bring it back. `felt pull` copies the record into
 * content/retracted/, and the build answers the old address with a gone page
 * or a redirect (site/render/retractedPages.ts). A run killed between the two
 * steps leaves the record and the article: running it again finishes.
 * Every refusal happens before anything is written.
 */
import os from 'node:os';
import { FeltError } from '../shared/errors.ts';
import { LIMIT_HINT, LIMITS, formatBytes } from '../shared/limits.ts';
import { RETRACTION_LIMITS, isAbsoluteHttpUrl, isSitePath, retractionObjectName, retractionSchema, type Retraction } from '../shared/retraction.ts';
import { SLUG_PATTERN } from '../shared/names.ts';
import type { SiteSettings } from '../shared/types.ts';
import { splitFrontmatter } from '../site/content/frontmatter.ts';
import { urls } from '../site/model/urls.ts';
import { loadProject } from './project.ts';
import { checkLocales } from './pull.ts';
import { createReporter, type Reporter } from './report.ts';
import { articleObjectName, bucketName, openStorage, type StorageChoice } from './storage/index.ts';
import { isPreconditionFailed, readWithin } from './storage/errors.ts';

export interface RetractOptions {
  contentDir: string;
  slug: string;
  locales?: string[];
  redirect?: string;
  reason?: string;
  /** Who retracts (default: FELT_OPERATOR, else the login name). */
  by?: string;
  allowExternal?: boolean;
  keepDev?: boolean;
  dryRun?: boolean;
  now?: Date;
  storage?: StorageChoice;
  reporter?: Reporter;
}

export interface RetractResult {
  bucket: string;
  records: Retraction[];
  /** Objects deleted (or, with --dry-run, that would be). */
  deleted: string[];
  dryRun: boolean;
}

export async function retract(options: RetractOptions): Promise<RetractResult> {
  const reporter = options.reporter ?? createReporter();
  if (!SLUG_PATTERN.test(options.slug)) throw new FeltError('BAD_SLUG', `--slug "${options.slug}" is not an article slug`);
  const locales = checkLocales(options.locales);
  const by = operatorOf(options.by);
  if (options.reason !== undefined && options.reason.length > RETRACTION_LIMITS.reason)
    throw new FeltError('BAD_OPTION', `--reason is ${options.reason.length} characters long, more than the record keeps (${RETRACTION_LIMITS.reason})`, {
      hint: 'shorten it: the record keeps why, not the whole story',
    });
  const project = await loadProject(options.contentDir);
  const redirect = options.redirect === undefined ? undefined : checkRedirect(options.redirect, options.slug, project.settings, Boolean(options.allowExternal));
  const storage = openStorage(project, options.storage);
  const prod = storage.bucket(bucketName(project.settings.storage.prefix, 'prod'));
  const dev = storage.bucket(bucketName(project.settings.storage.prefix, 'dev'));
  if (!(await prod.exists())) throw new FeltError('NOT_IN_PRODUCTION', `there is no production bucket ${prod.location}, so nothing to retract`);
  const found = [];
  for (const locale of locales) {
    const info = await prod.stat(articleObjectName(locale, options.slug));
    if (info) found.push({ locale, info });
  }
  if (!found.length)
    throw new FeltError('NOT_IN_PRODUCTION', `no article "${options.slug}" in ${prod.location} (${locales.join(', ')})`, {
      hint: 'check the slug and --locale: felt retract takes back published articles only',
    });
  // A redirect to an article of this site must lead to one production holds, in each locale retracted: the site of a locale
  // serves that locale's articles, and a redirect to a missing one would send readers to a 404.
  const target = redirect !== undefined && isSitePath(redirect) ? redirectArticleSlug(redirect) : undefined;
  if (target !== undefined) {
    const missing = [];
    for (const { locale } of found) if (!SLUG_PATTERN.test(target) || !(await prod.stat(articleObjectName(locale, target)))) missing.push(locale);
    if (missing.length)
      throw new FeltError(
        'NOT_IN_PRODUCTION',
        `--redirect "${options.redirect}" leads to no article: "${target}" is not in ${prod.location} (${missing.join(', ')})`,
        {
          hint:
            missing.length < found.length
              ? 'redirect each locale to an article it has: retract one locale at a time with --locale and its own --redirect'
              : 'redirect to a published article (felt pull --dry-run lists them), or leave --redirect out to answer 410 Gone',
        },
      );
  }
  const retractedAt = (options.now ?? new Date()).toISOString();
  const devExists = !options.keepDev && (await dev.exists());
  const result: RetractResult = { bucket: prod.location, records: [], deleted: [], dryRun: Boolean(options.dryRun) };
  const plan = [];
  for (const { locale, info } of found) {
    const name = articleObjectName(locale, options.slug);
    // Read for its title only: one larger than an article can be is still retracted (taking it back is the point), named by its slug.
    const text = await readWithin(prod, name, LIMITS.articleBytes);
    if (!text)
      reporter.note(
        `${prod.location}/${name} is larger than the limit of ${formatBytes(LIMITS.articleBytes)} for an article: its record takes the slug as its title (${LIMIT_HINT})`,
      );
    const title = (text && titleOf(text)) ?? options.slug;
    const record = retractionSchema.parse({ slug: options.slug, locale, title, retractedAt, by, reason: options.reason, redirect });
    const inDev = devExists ? await dev.stat(name) : undefined;
    plan.push({ name, record, generation: info.generation, inDev });
    result.records.push(record);
    result.deleted.push(`${prod.location}/${name}`, ...(inDev ? [`${dev.location}/${name}`] : []));
    reporter.print(`retract ${locale}/${options.slug} ("${title}"): ${redirect ? `redirect to ${redirect}` : 'answered 410 Gone'}`);
    reporter.print(`  record  ${prod.location}/${retractionObjectName(locale, options.slug)} (by ${by}${options.reason ? `: ${options.reason}` : ''})`);
    reporter.print(`  delete  ${prod.location}/${name}`);
    if (inDev) reporter.print(`  delete  ${dev.location}/${name}`);
    else if (options.keepDev) reporter.print(`  keep    ${dev.location}/${name} (--keep-dev)`);
  }
  if (options.dryRun) {
    reporter.print('dry run: nothing written');
    return result;
  }
  for (const { name, record, generation, inDev } of plan) {
    await prod.write(retractionObjectName(record.locale, record.slug), Buffer.from(`${JSON.stringify(record, null, 2)}\n`), {
      contentType: 'application/json; charset=utf-8',
    });
    try {
      // The generation seen in the plan: a version published meanwhile is not deleted unseen.
      await prod.delete(name, { ifGenerationMatch: generation });
      if (inDev) await dev.delete(name, { ifGenerationMatch: inDev.generation });
    } catch (error) {
      if (!isPreconditionFailed(error)) throw error;
      throw new FeltError('STORAGE_PRECONDITION_FAILED', `${name} changed while it was being retracted; the record is written, the article is not deleted`, {
        hint: 'look at the new version, then run the same felt retract again to finish',
      });
    }
  }
  reporter.print(`retracted ${options.slug} in ${found.map((f) => f.locale).join(', ')}; felt pull and felt build take it off the site`);
  return result;
}

/**
 * The redirect target: a path of this site, or an absolute URL of this
 * site's own host (kept as its path); another host only with
 * --allow-external. Never the retracted article's own address.
 */
export function checkRedirect(target: string, slug: string, settings: SiteSettings, allowExternal: boolean): string {
  let path: string | undefined;
  if (isSitePath(target)) path = target;
  else if (isAbsoluteHttpUrl(target)) {
    const url = new URL(target);
    if (url.host === new URL(settings.url).host) path = `${url.pathname}${url.search}${url.hash}`;
    else if (allowExternal) return url.href;
    else
      throw new FeltError('BAD_OPTION', `--redirect "${target}" leads to another site (${url.host})`, {
        hint: 'give a path of this site such as /articles/other-slug, or add --allow-external to send readers elsewhere',
      });
  } else
    throw new FeltError('BAD_OPTION', `--redirect "${target}" is not a path of this site`, {
      hint: 'give a path that starts with one "/", such as /articles/other-slug',
    });
  const own = urls.article(slug);
  if (path.replace(/\/+$/, '') === own)
    throw new FeltError('BAD_OPTION', `--redirect "${target}" is the retracted article's own address`, { hint: 'redirect to another page' });
  return path;
}

/** The slug of the article a path of this site leads to (/articles/<slug>, with or without a trailing slash), else undefined. */
export function redirectArticleSlug(sitePath: string): string | undefined {
  const { pathname } = new URL(sitePath, 'https://site.invalid');
  const prefix = urls.article('');
  if (!pathname.startsWith(prefix)) return undefined;
  const rest = pathname.slice(prefix.length).replace(/\/$/, '');
  return rest && !rest.includes('/') ? rest : undefined;
}

function titleOf(data: Buffer): string | undefined {
  try {
    const title = splitFrontmatter(data.toString('utf8')).data.title;
    return typeof title === 'string' ? title : undefined;
  } catch {
    return undefined;
  }
}

/** Who retracts: --by, else FELT_OPERATOR (an empty one counts as unset), else the login name; refused when empty or too long for the record. */
function operatorOf(flag: string | undefined): string {
  const by = flag ?? (process.env.FELT_OPERATOR || safeUserName());
  if (!by.trim())
    throw new FeltError('BAD_OPTION', '--by is empty', {
      hint: 'name who retracts, e.g. --by "night editor", or leave --by out to use FELT_OPERATOR or your login name',
    });
  if (by.length > RETRACTION_LIMITS.by)
    throw new FeltError('BAD_OPTION', `--by is ${by.length} characters long, more than the record keeps (${RETRACTION_LIMITS.by})`, {
      hint: flag === undefined ? 'set a shorter FELT_OPERATOR, or give --by' : 'give a shorter name',
    });
  return by;
}

function safeUserName(): string {
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
