/**
 * `felt generate --slug S --replace` (issue 12, item 6): the model writes
 * one existing article again, for the same locale, category, subcategory,
 * author, date and translationKey, under the same slug, and the answer goes
 * through the same checks and re-asks as any generated article. The text it
 * replaces is kept first as the next version in the dev bucket's history
 * (history.ts); the new text then goes to the dev bucket, where
 * `felt publish --slug S` promotes it and `felt publish --slug S --version N`
 * brings an older one back.
 */
import { FeltError } from '../../shared/errors.ts';
import { loadProject } from '../project.ts';
import { createReporter, type Reporter } from '../report.ts';
import { ARTICLE_CONTENT_TYPE, articleObjectName } from '../storage/index.ts';
import { isPreconditionFailed } from '../storage/errors.ts';
import { scanExisting, META } from './existing.ts';
import { keepVersion, versionObjectName } from './history.ts';
import { Llm, costUsd, llmEnv, type Usage } from './llm.ts';
import { askForArticle, checkFinalFile, findArticle, promptTemplate, ReplacingRegistry, withFields } from './oneArticle.ts';
import { today, type Plan } from './plan.ts';
import { PromptBook } from './prompts.ts';
import { loadLocaleRules } from './rules.ts';
import { checkLocale, devBucket, type GenerateOptions } from './run.ts';

export type ReplaceOptions = Pick<GenerateOptions, 'contentDir' | 'model' | 'attempts' | 'storage' | 'llm' | 'promptsDir' | 'reporter' | 'signal'> & {
  slug: string;
  locale?: string;
  /** The `updated` date of the new version (default: today, UTC). */
  date?: string;
};

export interface ReplaceResult {
  slug: string;
  locale: string;
  /** The version the replaced text was kept as. */
  keptVersion: number;
  object: string;
  title: string;
  attempts: number;
  model: string;
  usage: Usage & { costUsd: number | null };
}

export async function replaceArticle(options: ReplaceOptions): Promise<ReplaceResult> {
  const reporter: Reporter = options.reporter ?? createReporter();
  const project = await loadProject(options.contentDir);
  const bucket = await devBucket(project, options.storage);
  const current = await findArticle(project.contentDir, project.categories, bucket, options.slug, options.locale ? checkLocale(options.locale) : undefined);
  const { locale } = current;
  const model = options.model ?? project.settings.generation.model;
  const runId = `replace-${options.slug}`;
  const plan: Plan = { runId, locale, date: current.date, targets: [current.target], slots: [{ index: 0, target: current.target }] };
  const prompts = new PromptBook(options.promptsDir);
  const rules = await loadLocaleRules(locale);
  const existing = await scanExisting(project.contentDir, locale, bucket, runId);
  const registry = new ReplacingRegistry(existing.registry, options.slug, current.title);
  reporter.note(`regenerating ${locale}/${options.slug} ("${current.title}", from ${current.from}) with ${model}`);
  const messages = await prompts.messages(plan.slots[0]!, {
    siteTitle: project.settings.title,
    locale,
    rules,
    slotTotal: 1,
    existingTitles: (category) => registry.titlesIn(category).filter((t) => t !== current.title),
  });
  messages.push({
    role: 'user',
    content: await promptTemplate('replace.md', { title: current.title, description: current.description, slug: options.slug }, options.promptsDir),
  });
  const llm = new Llm({ ...llmEnv(), ...options.llm, model });
  const asked = await askForArticle({
    llm,
    messages,
    prompts,
    slot: plan.slots[0]!,
    meta: { author: current.author, date: current.date, locale },
    rules,
    registry,
    attempts: Math.max(1, options.attempts ?? 3),
    slug: options.slug,
    signal: options.signal,
    onReask: (reason) => reporter.note(`asking again: ${reason}`),
  });
  if (!asked.ok)
    throw new FeltError('INCOMPLETE', `${locale}/${options.slug} was not replaced: ${asked.reason} (after ${asked.attempts} answers)`, {
      hint: 'the old text is unchanged; run the command again, or --attempts more',
    });
  const file = withFields(asked.file, { translationKey: current.translationKey, updated: options.date ?? today() });
  checkFinalFile(file, options.slug, locale);
  const object = articleObjectName(locale, options.slug);
  const kept = await keepVersion(bucket, locale, options.slug, current.text, { [META.title]: current.title });
  try {
    // Only over the text just kept: a version written meanwhile is never overwritten unseen.
    await bucket.write(object, Buffer.from(file), {
      contentType: ARTICLE_CONTENT_TYPE,
      ifGenerationMatch: current.devObject?.generation ?? 0,
      metadata: { [META.run]: runId, [META.slot]: '0', [META.title]: asked.answer.title, [META.category]: current.target.category.key, [META.model]: model },
    });
  } catch (error) {
    if (!isPreconditionFailed(error)) throw error;
    throw new FeltError('STORAGE_PRECONDITION_FAILED', `${bucket.location}/${object} changed while it was being regenerated; nothing was replaced`, {
      hint: `run the command again (the text it had is kept as ${versionObjectName(locale, options.slug, kept)})`,
    });
  }
  reporter.print(`kept the old text as version ${kept} (${bucket.location}/${versionObjectName(locale, options.slug, kept)})`);
  reporter.print(`wrote the new version of ${locale}/${options.slug} ("${asked.answer.title}") to ${bucket.location}/${object}`);
  reporter.print(`publish it: felt publish --slug ${options.slug} --yes; undo: felt publish --slug ${options.slug} --version ${kept} --yes`);
  return {
    slug: options.slug,
    locale,
    keptVersion: kept,
    object,
    title: asked.answer.title,
    attempts: asked.attempts,
    model,
    usage: { ...llm.usage, costUsd: costUsd(llm.usage, project.settings.generation.prices[model]) ?? null },
  };
}
