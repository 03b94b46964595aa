/**
 * `felt generate` as a library function: plan the slots, skip those this
 * run already stored, produce the rest concurrently (p-limit), and report
 * tokens and cost. Every passing article is in the dev bucket the moment it
 * passes, so an interrupted run loses nothing finished and a rerun of the
 * same command does only what is missing.
 *
 * A night holds (issue 17): an article that fails its checks is reported and
 * skipped while the others are written; a provider outage trips the circuit
 * breaker, a run about to pass its budget stops, both with one line and the
 * work left for a rerun; slots of the run waiting in a batch are not paid twice.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { FeltError } from '../../shared/errors.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../../shared/types.ts';
import { loadProject, type Project } from '../project.ts';
import { createReporter, plural, type Reporter } from '../report.ts';
import { bucketName, openStorage, removeLeftoversIn, type StorageChoice } from '../storage/index.ts';
import type { Bucket } from '../storage/types.ts';
import { readRecords } from './batchRecords.ts';
import { CircuitBreaker, DEFAULT_BREAKER_LIMIT } from './breaker.ts';
import type { BudgetOptions } from './budget.ts';
import { DEFAULT_GATE } from './checks.ts';
import { scanExisting, type Existing } from './existing.ts';
import { Llm, costUsd, llmEnv, type Usage } from './llm.ts';
import { coverageRows, formatCoverage, type CoverageRow } from './coverage.ts';
import { makePlan, planIdentity, today, type Coverage, type Plan, type PlanRequest } from './plan.ts';
import { PromptBook, type ChatMessage } from './prompts.ts';
import { loadLocaleRules, type LocaleRules } from './rules.ts';
import { isProviderFailure, placeOf, produce, slotMessages, type Outcome, type WorkerContext } from './worker.ts';

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
  /** Consecutive provider failures that stop the run (--breaker; default generation.breaker, else 5). */
  breakerLimit?: number;
  /** USD the run may spend (--max-cost; default generation.budget, else no cap). */
  maxCostUsd?: number;
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
  /** Why the run stopped before its end with work left: the circuit breaker, the budget, or an endpoint nothing listens at. */
  stopped?: { reason: 'breaker' | 'budget' | 'unreachable'; message: string };
  /** Slots neither stored (now or before) nor failed: left for a rerun. */
  notWritten: number;
  usage: Usage & { costUsd: number | null };
}

export interface DryRunResult {
  dryRun: true;
  runId: string;
  plan: { slot: number; category: string; subcategory: string }[];
  coverage: CoverageRow[];
  prompts: { slot: number; messages: ChatMessage[] }[];
}

export interface Prepared {
  project: Project;
  plan: Plan;
  rules: LocaleRules;
  prompts: PromptBook;
  model: string;
  existing: Existing;
}

/**
 * The project, what exists in the locale (content/ and `bucketFor`'s bucket), and the plan made
 * from it: slots go where the locale has least.
 */
export async function prepare(options: GenerateOptions, bucketFor?: (project: Project) => Promise<Bucket | undefined>): Promise<Prepared> {
  const locale = checkLocale(options.locale);
  const project = await loadProject(options.contentDir);
  const request: PlanRequest = {
    locale,
    category: options.category,
    subcategory: options.subcategory,
    count: options.count,
    date: options.date ?? today(),
    runId: options.runId,
  };
  const { runId } = planIdentity(project.categories, request);
  const existing = await scanExisting(project.contentDir, locale, await bucketFor?.(project), runId, { keepSignatures: !options.dryRun });
  const plan = makePlan(project.categories, request, existing.registry.coverage(existing.ofThisRun));
  const rules = await loadLocaleRules(locale);
  return { project, plan, rules, prompts: new PromptBook(options.promptsDir), model: options.model ?? project.settings.generation.model, existing };
}

/** A content locale of `flag` (--locale, or --translate's --to): refused naming that flag. */
export function checkLocale(value: string, flag = '--locale'): ContentLocale {
  if (!(CONTENT_LOCALES as readonly string[]).includes(value)) {
    throw new FeltError('BAD_OPTION', `${flag} must be one of ${CONTENT_LOCALES.join(', ')}, not "${value}"`);
  }
  return value as ContentLocale;
}

export async function generate(options: GenerateOptions): Promise<RunSummary | DryRunResult> {
  const reporter = options.reporter ?? createReporter();
  if (options.dryRun) return dryRun(await prepare(options, (project) => readOnlyBucket(project, options.storage)), reporter);
  let bucket: Bucket | undefined;
  const prepared = await prepare(options, async (project) => (bucket = await devBucket(project, options.storage)));
  const { project, plan, existing } = prepared;
  await removeLeftoversIn(bucket!, [`articles/${plan.locale}/`], (line) => reporter.note(line));
  const missing = plan.slots.filter((slot) => !existing.done.has(slot.index));
  await refusePendingBatch(bucket!, plan, missing, reporter);
  reporter.note(
    `run ${plan.runId}: ${plural(plan.slots.length, 'article')} planned, ${existing.done.size} already in ${bucket!.location}, ${missing.length} to write with ${prepared.model}`,
  );
  const progress = reporter.progress('generate', missing.length);
  // The run's own stop (breaker, budget) beside the caller's (Ctrl-C): either ends the requests in flight.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let stopped: RunSummary['stopped'];
  const breakerLimit = options.breakerLimit ?? project.settings.generation.breaker ?? DEFAULT_BREAKER_LIMIT;
  const breaker = new CircuitBreaker(breakerLimit, (trip) => {
    stopped = {
      reason: 'breaker',
      message: `stopped after ${trip.failures} consecutive provider failures (the last: ${trip.lastReason})`,
    };
    stop.abort(new FeltError('PROVIDER_OUTAGE', stopped.message));
  });
  const llm = new Llm({
    ...llmEnv(),
    ...options.llm,
    model: prepared.model,
    budget: budgetOf(prepared, options),
    onRetry: (reason, retry, maxRetries) => progress.note(`retrying after ${reason} (retry ${retry} of ${maxRetries})`),
  });
  const ctx = {
    ...workerContext(
      prepared,
      existing,
      llm,
      bucket!,
      { ...options, signal },
      (slot, reason) => progress.note(`slot ${slot.index + 1}: asking again: ${reason}`),
      (line) => progress.note(line),
    ),
    breaker,
  };
  const limit = workerPool({ ...options, signal });
  const outcomes: Outcome[] = [];
  const outageVictims = new Set<number>();
  let interrupted = false;
  await Promise.all(
    missing.map((slot) =>
      limit(async () => {
        if (signal.aborted || stopped) return;
        try {
          const outcome = await produce(slot, ctx);
          outcomes.push(outcome);
          progress.tick(outcome.status === 'stored' ? `stored ${outcome.object}` : `skipped slot ${slot.index + 1}: ${outcome.reason}`);
        } catch (error) {
          if (options.signal?.aborted) return void (interrupted = true);
          if (stopped) return;
          if (error instanceof FeltError && error.code === 'LLM_UNREACHABLE') {
            // Nothing listens at the endpoint: every other article would be refused the same way.
            stopped = { reason: 'unreachable', message: error.message };
            stop.abort(error);
            return;
          }
          if (error instanceof FeltError && error.code === 'BUDGET_REACHED') {
            // Calls in flight hold their share of the budget and finish; nothing new starts.
            stopped = { reason: 'budget', message: error.message };
            return;
          }
          const reason = error instanceof FeltError ? error.message : String(error);
          if (isProviderFailure(error)) outageVictims.add(slot.index);
          outcomes.push({ ...placeOf(slot, 0), status: 'failed', cause: isProviderFailure(error) ? 'provider' : 'other', reason });
          progress.tick(`failed slot ${slot.index + 1}: ${reason}`);
        }
      }),
    ),
  );
  progress.done();
  interrupted ||= Boolean(options.signal?.aborted);
  // Through an outage the slots whose calls failed are not bad articles: they are left for the rerun with the rest.
  const kept = stopped?.reason === 'breaker' ? outcomes.filter((o) => !outageVictims.has(o.slot)) : outcomes;
  return { ...summarise(prepared, llm, existing, kept, interrupted), ...(stopped ? { stopped } : {}) };
}

/** The run's budget: --max-cost, else generation.budget; a cap needs the model's price to be kept. */
export function budgetOf(prepared: Prepared, options: Pick<GenerateOptions, 'maxCostUsd'>): BudgetOptions | undefined {
  const limitUsd = options.maxCostUsd ?? prepared.project.settings.generation.budget;
  if (limitUsd === undefined) return undefined;
  const price = prepared.project.settings.generation.prices[prepared.model];
  if (!price) {
    throw new FeltError('BAD_OPTION', `a budget of $${limitUsd} needs the price of ${prepared.model}`, {
      file: 'content/site.json',
      field: `generation.prices.${prepared.model}`,
      hint: 'add the input and output prices per million tokens, or run without --max-cost',
    });
  }
  // An answer at the locale's longest, in tokens: a word is up to about two tokens, plus the JSON around it.
  return { limitUsd, price, expectedCompletionTokens: prepared.rules.maxWords * 2 };
}

/**
 * A direct run must not pay again for articles a submitted batch of the same run will deliver: it
 * is refused with a line pointing at --collect, which stores the batch and asks again directly
 * only what failed.
 */
async function refusePendingBatch(bucket: Bucket, plan: Plan, missing: Plan['slots'], reporter: Reporter): Promise<void> {
  const wanted = new Set(missing.map((s) => s.index));
  for (const record of await readRecords(bucket, reporter)) {
    if (record.status !== 'submitted' || record.request.locale !== plan.locale || record.request.runId !== plan.runId) continue;
    const waiting = record.slots.filter((s) => wanted.has(s));
    if (waiting.length) {
      throw new FeltError(
        'BATCH_PENDING',
        `run ${plan.runId}: ${plural(waiting.length, 'article')} of this run ${waiting.length === 1 ? 'is' : 'are'} in batch ${record.batchId}, not collected yet; writing them directly would pay for them twice`,
      );
    }
  }
}

/** The dev bucket for reading only (a dry run): a folder bucket as it is; none for GCS, so a dry run needs no credentials. */
async function readOnlyBucket(project: Project, choice: StorageChoice | undefined): Promise<Bucket | undefined> {
  const storage = openStorage(project, choice);
  return storage.kind === 'local' ? storage.bucket(bucketName(project.settings.storage.prefix, 'dev')) : undefined;
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
    gate: { duplicateThreshold: prepared.project.settings.generation.duplicateThreshold ?? DEFAULT_GATE.duplicateThreshold },
    pictures: images && { settings: images, note: onPicture },
  };
}

export function summarise(prepared: Prepared, llm: Llm, existing: Existing, outcomes: Outcome[], interrupted: boolean): RunSummary {
  const sorted = [...outcomes].sort((a, b) => a.slot - b.slot);
  const cost = costUsd(llm.usage, prepared.project.settings.generation.prices[prepared.model]);
  const planned = prepared.plan.slots.filter(Boolean).length;
  return {
    runId: prepared.plan.runId,
    locale: prepared.plan.locale,
    model: prepared.model,
    planned,
    alreadyDone: existing.done.size,
    stored: sorted.filter((o): o is Extract<Outcome, { status: 'stored' }> => o.status === 'stored'),
    failed: sorted.filter((o): o is Extract<Outcome, { status: 'failed' }> => o.status === 'failed'),
    interrupted,
    notWritten: Math.max(0, planned - existing.done.size - sorted.length),
    usage: { ...llm.usage, costUsd: cost ?? null },
  };
}

async function dryRun(prepared: Prepared, reporter: Reporter): Promise<DryRunResult> {
  const { project, plan: runPlan, existing } = prepared;
  const ctx = { ...prepared, registry: existing.registry, siteTitle: project.settings.title };
  const prompts = [];
  for (const slot of runPlan.slots) prompts.push({ slot: slot.index, messages: await slotMessages(slot, ctx) });
  const plan = runPlan.slots.map((s) => ({ slot: s.index, category: s.target.category.key, subcategory: s.target.subcategory.key }));
  const local = await readOnlyBucket(project, undefined).catch(() => undefined);
  const bucket = local && (await local.exists()) ? local : undefined;
  const perLocale = new Map<ContentLocale, Coverage>();
  for (const locale of CONTENT_LOCALES) {
    const scanned = locale === runPlan.locale ? existing : await scanExisting(project.contentDir, locale, bucket, runPlan.runId);
    perLocale.set(locale, scanned.registry.coverage());
  }
  const coverage = coverageRows(project.categories, perLocale, runPlan);
  reporter.print(`run ${runPlan.runId}: ${plural(plan.length, 'article')} in ${runPlan.locale} with ${prepared.model} (dry run: nothing is called)`);
  reporter.print(`\ncoverage (articles in content/${bucket ? ` and ${bucket.location}` : ''}):`);
  for (const line of formatCoverage(coverage, runPlan.locale)) reporter.print(line);
  for (const { slot, messages } of prompts) {
    reporter.print(`\n=== slot ${slot + 1}: ${plan[slot]!.category} / ${plan[slot]!.subcategory}`);
    for (const m of messages) reporter.print(`--- ${m.role}\n${m.content.trim()}`);
  }
  return { dryRun: true, runId: runPlan.runId, plan, coverage, prompts };
}
