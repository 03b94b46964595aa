/**
 * `felt generate` as a library function: plan the slots, skip those this
 * run already stored, produce the rest concurrently (p-limit), and report
 * tokens and cost. Every passing article is in the dev bucket the moment it
 * passes, so an interrupted run loses nothing finished and a rerun of the
 * same command does only what is missing.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { FeltError } from '../../shared/errors.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../../shared/types.ts';
import { loadProject, type Project } from '../project.ts';
import { createReporter, plural, type Reporter } from '../report.ts';
import { bucketName, openStorage, type StorageChoice } from '../storage/index.ts';
import type { Bucket } from '../storage/types.ts';
import { scanExisting, type Existing } from './existing.ts';
import { Llm, costUsd, llmEnv, type Usage } from './llm.ts';
import { makePlan, today, type Plan } from './plan.ts';
import { PromptBook, type ChatMessage } from './prompts.ts';
import { loadLocaleRules, type LocaleRules } from './rules.ts';
import { produce, slotMessages, type Outcome, type WorkerContext } from './worker.ts';

export interface GenerateOptions {
  contentDir: string;
  locale: string;
  category?: string;
  subcategory?: string;
  count: number;
  concurrency?: number;
  model?: string;
  dryRun?: boolean;
  /** Answers asked per article before it is recorded as failed (default 3). */
  attempts?: number;
  runId?: string;
  date?: string;
  storage?: StorageChoice;
  llm?: { baseURL?: string; apiKey?: string; timeoutMs?: number; maxRetries?: number };
  promptsDir?: string;
  reporter?: Reporter;
  signal?: AbortSignal;
}

export interface RunSummary {
  runId: string;
  locale: ContentLocale;
  model: string;
  planned: number;
  alreadyDone: number;
  stored: Extract<Outcome, { status: 'stored' }>[];
  failed: Extract<Outcome, { status: 'failed' }>[];
  interrupted: boolean;
  usage: Usage & { costUsd: number | null };
}

export interface DryRunResult {
  dryRun: true;
  runId: string;
  plan: { slot: number; category: string; subcategory: string }[];
  prompts: { slot: number; messages: ChatMessage[] }[];
}

export interface Prepared {
  project: Project;
  plan: Plan;
  rules: LocaleRules;
  prompts: PromptBook;
  model: string;
}

export async function prepare(options: GenerateOptions): Promise<Prepared> {
  const locale = checkLocale(options.locale);
  const project = await loadProject(options.contentDir);
  const plan = makePlan(project.categories, {
    locale,
    category: options.category,
    subcategory: options.subcategory,
    count: options.count,
    date: options.date ?? today(),
    runId: options.runId,
  });
  const rules = await loadLocaleRules(locale);
  return { project, plan, rules, prompts: new PromptBook(options.promptsDir), model: options.model ?? project.settings.generation.model };
}

export function checkLocale(value: string): ContentLocale {
  if (!(CONTENT_LOCALES as readonly string[]).includes(value)) {
    throw new FeltError('BAD_OPTION', `--locale must be one of ${CONTENT_LOCALES.join(', ')}, not "${value}"`);
  }
  return value as ContentLocale;
}

export async function generate(options: GenerateOptions): Promise<RunSummary | DryRunResult> {
  const reporter = options.reporter ?? createReporter();
  const prepared = await prepare(options);
  const { project, plan } = prepared;
  if (options.dryRun) return dryRun(prepared, options, reporter);
  const bucket = await devBucket(project, options.storage);
  const existing = await scanExisting(project.contentDir, plan.locale, bucket, plan.runId);
  const missing = plan.slots.filter((slot) => !existing.done.has(slot.index));
  reporter.note(
    `run ${plan.runId}: ${plural(plan.slots.length, 'article')} planned, ${existing.done.size} already in ${bucket.location}, ${missing.length} to write with ${prepared.model}`,
  );
  const progress = reporter.progress('generate', missing.length);
  const llm = new Llm({
    ...llmEnv(),
    ...options.llm,
    model: prepared.model,
    onRetry: (reason, retry, maxRetries) => progress.note(`retrying after ${reason} (retry ${retry} of ${maxRetries})`),
  });
  const ctx = workerContext(
    prepared,
    existing,
    llm,
    bucket,
    options,
    (slot, reason) => progress.note(`slot ${slot.index + 1}: asking again: ${reason}`),
    (line) => progress.note(line),
  );
  const limit = workerPool(options);
  const outcomes: Outcome[] = [];
  let interrupted = false;
  await Promise.all(
    missing.map((slot) =>
      limit(async () => {
        if (options.signal?.aborted) return;
        try {
          const outcome = await produce(slot, ctx);
          outcomes.push(outcome);
          progress.tick(outcome.status === 'stored' ? `stored ${outcome.object}` : `failed slot ${slot.index + 1}: ${outcome.reason}`);
        } catch (error) {
          if (options.signal?.aborted) return void (interrupted = true);
          const reason = error instanceof FeltError ? error.message : String(error);
          outcomes.push({ slot: slot.index, status: 'failed', reason, attempts: 0 });
          progress.tick(`failed slot ${slot.index + 1}: ${reason}`);
        }
      }),
    ),
  );
  progress.done();
  interrupted ||= Boolean(options.signal?.aborted);
  return summarise(prepared, llm, existing, outcomes, interrupted);
}

/**
 * The pool that runs a run's articles, `concurrency` at a time. Each request
 * in flight listens to the run's signal (so Ctrl-C stops it) until it ends, so
 * up to `concurrency` listen at once: a bound, not the leak Node warns about
 * past 10 listeners.
 */
export function workerPool(options: Pick<GenerateOptions, 'concurrency' | 'signal'>): ReturnType<typeof pLimit> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  if (options.signal) setMaxListeners(Math.max(getMaxListeners(options.signal), concurrency), options.signal);
  return pLimit(concurrency);
}

export async function devBucket(project: Project, choice: StorageChoice | undefined): Promise<Bucket> {
  const bucket = openStorage(project, choice).bucket(bucketName(project.settings.storage.prefix, 'dev'));
  if (!(await bucket.exists())) await bucket.create();
  return bucket;
}

export function workerContext(
  prepared: Prepared,
  existing: Existing,
  llm: Llm,
  bucket: Bucket,
  options: Pick<GenerateOptions, 'attempts' | 'signal'>,
  onReask: WorkerContext['onReask'],
  /** Where generation.images tells what became of each picture. */
  onPicture: (line: string) => void = () => undefined,
): WorkerContext {
  const images = prepared.project.settings.generation.images;
  return {
    plan: prepared.plan,
    rules: prepared.rules,
    registry: existing.registry,
    prompts: prepared.prompts,
    siteTitle: prepared.project.settings.title,
    authors: prepared.project.authors,
    llm,
    bucket,
    attempts: Math.max(1, options.attempts ?? 3),
    signal: options.signal,
    onReask,
    pictures: images && { settings: images, note: onPicture },
  };
}

export function summarise(prepared: Prepared, llm: Llm, existing: Existing, outcomes: Outcome[], interrupted: boolean): RunSummary {
  const sorted = [...outcomes].sort((a, b) => a.slot - b.slot);
  const cost = costUsd(llm.usage, prepared.project.settings.generation.prices[prepared.model]);
  return {
    runId: prepared.plan.runId,
    locale: prepared.plan.locale,
    model: prepared.model,
    planned: prepared.plan.slots.length,
    alreadyDone: existing.done.size,
    stored: sorted.filter((o): o is Extract<Outcome, { status: 'stored' }> => o.status === 'stored'),
    failed: sorted.filter((o): o is Extract<Outcome, { status: 'failed' }> => o.status === 'failed'),
    interrupted,
    usage: { ...llm.usage, costUsd: cost ?? null },
  };
}

async function dryRun(prepared: Prepared, options: GenerateOptions, reporter: Reporter): Promise<DryRunResult> {
  const existing = await scanExisting(prepared.project.contentDir, prepared.plan.locale, undefined, prepared.plan.runId);
  const ctx = { ...prepared, registry: existing.registry, siteTitle: prepared.project.settings.title };
  const prompts = [];
  for (const slot of prepared.plan.slots) prompts.push({ slot: slot.index, messages: await slotMessages(slot, ctx) });
  const plan = prepared.plan.slots.map((s) => ({ slot: s.index, category: s.target.category.key, subcategory: s.target.subcategory.key }));
  reporter.print(
    `run ${prepared.plan.runId}: ${plural(plan.length, 'article')} in ${prepared.plan.locale} with ${prepared.model} (dry run: nothing is called)`,
  );
  for (const { slot, messages } of prompts) {
    reporter.print(`\n=== slot ${slot + 1}: ${plan[slot]!.category} / ${plan[slot]!.subcategory}`);
    for (const m of messages) reporter.print(`--- ${m.role}\n${m.content.trim()}`);
  }
  void options;
  return { dryRun: true, runId: prepared.plan.runId, plan, prompts };
}
