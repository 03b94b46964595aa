/**
 * `felt generate --translate S --to ru_RU,tr_TR` (issue 12, item 7): the
 * other locales' versions of an existing article, as one translation set.
 * Each is asked of the model in its own locale's prompt, checked by its own
 * locale's rules (language, suffixes, length, structure, a slug and a title
 * new in that locale), and stored in the dev bucket with the source's
 * translationKey. A source without one gets its slug as the key, written
 * back to the dev bucket (the text it had kept in its history), so the set
 * links itself with hreflang once it is published and pulled. A locale
 * that already has an article of the set is skipped: a rerun finishes only
 * what is missing; one locale failing does not stop the others.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { articleFolder } from '../../shared/paths.ts';
import { FeltError } from '../../shared/errors.ts';
import type { ContentLocale } from '../../shared/types.ts';
import { splitFrontmatter } from '../../site/content/frontmatter.ts';
import { loadProject } from '../project.ts';
import { createReporter, type Reporter } from '../report.ts';
import { ARTICLE_CONTENT_TYPE, articleObjectName } from '../storage/index.ts';
import type { Bucket } from '../storage/types.ts';
import { META, scanExisting } from './existing.ts';
import { keepVersion } from './history.ts';
import { Llm, costUsd, llmEnv, type Usage } from './llm.ts';
import { askForArticle, checkFinalFile, findArticle, promptTemplate, withFields } from './oneArticle.ts';
import { today } from './plan.ts';
import { PromptBook } from './prompts.ts';
import { loadLocaleRules } from './rules.ts';
import { checkLocale, devBucket, type GenerateOptions } from './run.ts';

/** Object metadata naming the translation set, so a rerun finds the versions already stored without reading them. */
export const TRANSLATION_KEY_META = 'feltTranslationKey';

export type TranslateOptions = Pick<GenerateOptions, 'contentDir' | 'model' | 'attempts' | 'storage' | 'llm' | 'promptsDir' | 'reporter' | 'signal'> & {
  slug: string;
  /** The source's locale, when the slug exists in more than one. */
  from?: string;
  to: string[];
  /** The translations' date (default: today, UTC). */
  date?: string;
};

export interface TranslateResult {
  slug: string;
  locale: ContentLocale;
  translationKey: string;
  /** The source written back to the dev bucket with its new translationKey. */
  sourceKeyed?: string;
  stored: { locale: ContentLocale; slug: string; object: string; title: string; attempts: number }[];
  skipped: { locale: ContentLocale; reason: string }[];
  failed: { name: string; reason: string }[];
  model: string;
  usage: Usage & { costUsd: number | null };
}

export async function translateArticle(options: TranslateOptions): Promise<TranslateResult> {
  const reporter: Reporter = options.reporter ?? createReporter();
  const targets = [...new Set(options.to.map((locale) => checkLocale(locale, '--to')))];
  if (!targets.length) throw new FeltError('BAD_OPTION', '--translate needs --to with one or more content locales, e.g. --to ru_RU,tr_TR');
  const project = await loadProject(options.contentDir);
  const bucket = await devBucket(project, options.storage);
  const source = await findArticle(project.contentDir, project.categories, bucket, options.slug, options.from ? checkLocale(options.from) : undefined);
  if (targets.includes(source.locale))
    throw new FeltError('BAD_OPTION', `--to ${source.locale} is the source's own locale`, { hint: 'name the other locales only' });
  const translationKey = source.translationKey ?? source.slug;
  const model = options.model ?? project.settings.generation.model;
  const llm = new Llm({ ...llmEnv(), ...options.llm, model });
  const prompts = new PromptBook(options.promptsDir);
  const date = options.date ?? today();
  const result: TranslateResult = {
    slug: source.slug,
    locale: source.locale,
    translationKey,
    stored: [],
    skipped: [],
    failed: [],
    model,
    usage: { ...llm.usage, costUsd: null },
  };
  const slot = { index: 0, target: source.target };
  for (const locale of targets) {
    const existing = await findTranslation(project.contentDir, bucket, locale, translationKey);
    if (existing) {
      result.skipped.push({ locale, reason: `already has ${existing}` });
      reporter.print(`skipped  ${locale}: already has ${existing}`);
      continue;
    }
    const runId = `translate-${source.slug}-${locale}`;
    const rules = await loadLocaleRules(locale);
    const { registry } = await scanExisting(project.contentDir, locale, bucket, runId);
    const messages = await prompts.messages(slot, {
      siteTitle: project.settings.title,
      locale,
      rules,
      slotTotal: 1,
      existingTitles: (c) => registry.titlesIn(c),
    });
    messages.push({
      role: 'user',
      content: await promptTemplate(
        'translate.md',
        { languageName: rules.languageName, title: source.title, description: source.description, body: source.body },
        options.promptsDir,
      ),
    });
    const asked = await askForArticle({
      llm,
      messages,
      prompts,
      slot,
      meta: { author: source.author, date, locale },
      rules,
      registry,
      attempts: Math.max(1, options.attempts ?? 3),
      signal: options.signal,
      onReask: (reason) => reporter.note(`${locale}: asking again: ${reason}`),
    });
    if (!asked.ok) {
      result.failed.push({ name: `${locale} version of ${source.slug}`, reason: asked.reason });
      reporter.print(`failed   ${locale}: ${asked.reason}`);
      continue;
    }
    const file = withFields(asked.file, { translationKey });
    checkFinalFile(file, asked.answer.slug, locale);
    const object = articleObjectName(locale, asked.answer.slug);
    try {
      await bucket.write(object, Buffer.from(file), {
        contentType: ARTICLE_CONTENT_TYPE,
        ifGenerationMatch: 0,
        metadata: {
          [META.run]: runId,
          [META.slot]: '0',
          [META.title]: asked.answer.title,
          [META.category]: source.target.category.key,
          [META.model]: model,
          [TRANSLATION_KEY_META]: translationKey,
        },
      });
    } catch (error) {
      result.failed.push({ name: object, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    result.stored.push({ locale, slug: asked.answer.slug, object, title: asked.answer.title, attempts: asked.attempts });
    reporter.print(`stored   ${locale}: ${bucket.location}/${object} ("${asked.answer.title}")`);
  }
  if (!source.translationKey && result.stored.length) result.sourceKeyed = await keySource(bucket, source, translationKey);
  if (result.sourceKeyed) reporter.print(`keyed    ${source.locale}: ${bucket.location}/${result.sourceKeyed} now has translationKey: ${translationKey}`);
  result.usage = { ...llm.usage, costUsd: costUsd(llm.usage, project.settings.generation.prices[model]) ?? null };
  reporter.print(
    `translation set "${translationKey}": ${result.stored.length} stored, ${result.skipped.length} already there, ${result.failed.length} failed; publish them together (felt publish --all) and hreflang links them once pulled`,
  );
  return result;
}

/** The source with the set's key, into the dev bucket, its previous text kept as a version. */
async function keySource(bucket: Bucket, source: Awaited<ReturnType<typeof findArticle>>, translationKey: string): Promise<string> {
  const object = articleObjectName(source.locale, source.slug);
  const keyed = withFields(source.text.toString('utf8'), { translationKey });
  checkFinalFile(keyed, source.slug, source.locale);
  if (source.devObject) await keepVersion(bucket, source.locale, source.slug, source.text, { [META.title]: source.title });
  await bucket.write(object, Buffer.from(keyed), {
    contentType: ARTICLE_CONTENT_TYPE,
    ifGenerationMatch: source.devObject?.generation ?? 0,
    metadata: { ...(source.devObject?.metadata ?? {}), [META.title]: source.title, [TRANSLATION_KEY_META]: translationKey },
  });
  return object;
}

/** An article of the set already in `locale`: in the dev bucket (by metadata) or in content/ (by frontmatter). */
async function findTranslation(contentDir: string, bucket: Bucket, locale: ContentLocale, key: string): Promise<string | undefined> {
  for (const object of await bucket.list(`articles/${locale}/`)) if (object.metadata[TRANSLATION_KEY_META] === key) return object.name;
  const folder = articleFolder(contentDir, locale);
  for (const name of (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.md'))) {
    const text = await readFile(path.join(folder, name), 'utf8').catch(() => '');
    if (!text.includes(key)) continue;
    try {
      if (splitFrontmatter(text).data.translationKey === key) return path.join(folder, name);
    } catch {
      // An unreadable file is felt check's to report, not a translation.
    }
  }
  return undefined;
}
