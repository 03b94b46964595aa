/**
 * Large runs through the provider's Batch API. `felt generate --batch`
 * uploads one JSONL file of requests for the slots still missing and creates
 * a batch; a record of it is kept in the dev bucket (batches/{locale}/{id}.json)
 * so `felt generate --collect` can run later, from anywhere. Collecting
 * checks and stores each answer like a direct run (a failing answer is asked
 * again directly, with the reason), skips slots already stored, and marks the
 * record collected: rerunning it is safe.
 */
import { toFile } from 'openai';
import { FeltError } from '../../shared/errors.ts';
import { loadProject } from '../project.ts';
import { createReporter, plural, type Reporter } from '../report.ts';
import type { Bucket } from '../storage/types.ts';
import { readRecords, saveRecord, type BatchRecord } from './batchRecords.ts';
import { scanExisting } from './existing.ts';
import { Budget } from './budget.ts';
import { BATCH_DISCOUNT, completionOf, costUsd, emptyUsage, Llm, llmEnv, type Completion } from './llm.ts';
import { makePlan, planWithSlots } from './plan.ts';
import { refusedCount } from './notWritten.ts';
import { PromptBook } from './prompts.ts';
import { loadLocaleRules } from './rules.ts';
import { budgetOf, devBucket, prepare, summarise, workerContext, workerPool, type GenerateOptions, type Prepared, type RunSummary } from './run.ts';
import { isProviderFailure, placeOf, produce, slotMessages, type Outcome } from './worker.ts';

export interface SubmitResult {
  runId: string;
  batchId: string | null;
  slots: number[];
  alreadyDone: number;
  alreadyBatched: number;
  /** Slots left out because the budget did not cover them at batch prices: the next run submits them. */
  overBudget: number;
  /** What the submitted articles may cost at batch prices (the budget's estimate), when there is a budget. */
  estimatedUsd?: number;
  budgetUsd?: number;
}

export async function submitBatch(options: GenerateOptions): Promise<SubmitResult> {
  const reporter = options.reporter ?? createReporter();
  let bucket!: Bucket;
  const prepared = await prepare(options, async (project) => (bucket = await devBucket(project, options.storage)));
  const { project, plan, existing } = prepared;
  const llm = new Llm({ ...llmEnv(), ...options.llm, model: prepared.model });
  const records = await readRecords(bucket, reporter);
  const batched = new Set(
    records.filter((r) => r.status === 'submitted' && r.request.locale === plan.locale && r.request.runId === plan.runId).flatMap((r) => r.slots),
  );
  const missing = plan.slots.filter((s) => !existing.done.has(s.index) && !batched.has(s.index));
  const result: SubmitResult = {
    runId: plan.runId,
    batchId: null,
    slots: missing.map((s) => s.index),
    alreadyDone: existing.done.size,
    alreadyBatched: batched.size,
    overBudget: 0,
  };
  if (!missing.length) {
    reporter.print(`run ${plan.runId}: nothing to submit (${existing.done.size} stored, ${batched.size} in a batch not yet collected)`);
    return result;
  }
  const lines: string[] = [];
  // A budget is kept at submission: the articles whose estimated cost at batch prices fits are submitted, the rest wait.
  const budgetOptions = budgetOf(prepared, options);
  const estimator = budgetOptions && new Budget(budgetOptions, emptyUsage());
  let estimatedUsd = 0;
  const submitted: typeof missing = [];
  for (const slot of missing) {
    const messages = await slotMessages(slot, { ...prepared, registry: existing.registry, siteTitle: project.settings.title });
    const body = llm.body(messages);
    if (estimator) {
      const cost = estimator.estimateUsd(JSON.stringify(body).length) * BATCH_DISCOUNT;
      if (estimatedUsd + cost > budgetOptions.limitUsd) break;
      estimatedUsd += cost;
    }
    submitted.push(slot);
    lines.push(JSON.stringify({ custom_id: `${plan.runId}:${slot.index}`, method: 'POST', url: '/v1/chat/completions', body }));
  }
  if (estimator) {
    Object.assign(result, {
      slots: submitted.map((s) => s.index),
      overBudget: missing.length - submitted.length,
      estimatedUsd,
      budgetUsd: budgetOptions.limitUsd,
    });
    if (!submitted.length) {
      throw new FeltError('BUDGET_REACHED', `run ${plan.runId}: the budget of $${budgetOptions.limitUsd} does not cover one article at batch prices`);
    }
  }
  const upload = await toFile(Buffer.from(`${lines.join('\n')}\n`), `felt-${plan.runId}.jsonl`);
  const file = await llm.call((signal) => llm.client.files.create({ file: upload, purpose: 'batch' }, { signal }));
  const batch = await llm.call((signal) =>
    llm.client.batches.create(
      { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { felt_run: plan.runId } },
      { signal },
    ),
  );
  const record: BatchRecord = {
    batchId: batch.id,
    inputFileId: file.id,
    request: { locale: plan.locale, category: options.category, subcategory: options.subcategory, count: options.count, date: plan.date, runId: plan.runId },
    model: prepared.model,
    slots: result.slots,
    targets: submitted.map((s) => ({ slot: s.index, category: s.target.category.key, subcategory: s.target.subcategory.key })),
    status: 'submitted',
    submittedAt: new Date().toISOString(),
  };
  await saveRecord(bucket, record);
  const estimate = estimator ? ` (about $${estimatedUsd.toFixed(4)} at most, at batch prices)` : '';
  reporter.print(
    `run ${plan.runId}: batch ${batch.id} submitted with ${plural(submitted.length, 'article')}${estimate}; collect it later with felt generate --collect`,
  );
  return { ...result, batchId: batch.id };
}

export type CollectOptions = Pick<GenerateOptions, 'contentDir' | 'storage' | 'llm' | 'reporter' | 'attempts' | 'concurrency' | 'signal' | 'promptsDir'>;

export interface CollectResult {
  batches: { batchId: string; status: string; summary?: RunSummary }[];
}

export async function collectBatches(options: CollectOptions): Promise<CollectResult> {
  const reporter = options.reporter ?? createReporter();
  const project = await loadProject(options.contentDir);
  const bucket = await devBucket(project, options.storage);
  const records = (await readRecords(bucket, reporter)).filter((r) => r.status === 'submitted');
  const result: CollectResult = { batches: [] };
  if (!records.length) reporter.print('no batch is waiting to be collected');
  for (const record of records) result.batches.push(await collectOne(record, bucket, options, reporter));
  return result;
}

async function collectOne(record: BatchRecord, bucket: Bucket, options: CollectOptions, reporter: Reporter): Promise<CollectResult['batches'][number]> {
  const project = await loadProject(options.contentDir);
  const existing = await scanExisting(project.contentDir, record.request.locale, bucket, record.request.runId ?? '');
  // The slots' places as planned at submission; a record of an older version is planned again.
  const plan = record.targets
    ? planWithSlots(project.categories, record.request, record.targets)
    : makePlan(project.categories, record.request, existing.registry.coverage(existing.ofThisRun));
  const prepared: Prepared = {
    project,
    plan,
    rules: await loadLocaleRules(plan.locale),
    prompts: new PromptBook(options.promptsDir),
    model: record.model,
    existing,
  };
  const llm = new Llm({ ...llmEnv(), ...options.llm, model: record.model });
  const batch = await llm.call((signal) => llm.client.batches.retrieve(record.batchId, { signal }));
  if (['validating', 'in_progress', 'finalizing', 'cancelling'].includes(batch.status)) {
    reporter.print(
      `batch ${record.batchId}: ${batch.status.replace('_', ' ')} (${batch.request_counts?.completed ?? 0}/${batch.request_counts?.total ?? record.slots.length} done); collect again later`,
    );
    return { batchId: record.batchId, status: batch.status };
  }
  if (batch.status !== 'completed') {
    await saveRecord(bucket, { ...record, status: batch.status as BatchRecord['status'] });
    reporter.print(`batch ${record.batchId}: ${batch.status}; its articles will be written by the next felt generate of run ${record.request.runId}`);
    return { batchId: record.batchId, status: batch.status };
  }
  const answers = new Map<number, Completion>();
  if (batch.output_file_id) {
    const text = await (await llm.call((signal) => llm.client.files.content(batch.output_file_id!, { signal }))).text();
    for (const line of text.split('\n').filter((l) => l.trim())) {
      let entry: BatchLine;
      try {
        entry = JSON.parse(line) as BatchLine;
      } catch {
        continue; // A line cut short: its slot is asked again directly.
      }
      const slot = Number(entry.custom_id?.split(':')[1]);
      const body = entry.response?.body;
      // Every answered request is billed (at the batch price), whatever its status; an answer without a usable count
      // is estimated from its length (llm.ts, count).
      if (body) llm.count(body.usage, { batch: true, answerChars: completionOf(body).content.length });
      if (entry.response?.status_code === 200 && body && Number.isInteger(slot)) answers.set(slot, completionOf(body));
    }
  }
  const todo = record.slots
    .filter((s) => !existing.done.has(s))
    .map((s) => plan.slots[s]!)
    .filter(Boolean);
  const progress = reporter.progress(`collect ${record.batchId}`, todo.length);
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
  await Promise.all(
    todo.map((slot) =>
      limit(async () => {
        let outcome: Outcome;
        try {
          outcome = await produce(slot, ctx, answers.get(slot.index));
        } catch (error) {
          const reason = error instanceof FeltError ? error.message : String(error);
          outcome = { ...placeOf(slot, 0), status: 'failed', cause: isProviderFailure(error) ? 'provider' : 'other', reason };
        }
        outcomes.push(outcome);
        progress.tick(
          outcome.status === 'stored'
            ? `stored ${outcome.object}`
            : `${outcome.cause === 'checks' ? 'skipped' : 'failed'} slot ${slot.index + 1}: ${outcome.reason}`,
        );
      }),
    ),
  );
  progress.done();
  const summary = summarise(prepared, llm, existing, outcomes, false);
  if (!summary.failed.length) await saveRecord(bucket, { ...record, status: 'collected', collectedAt: new Date().toISOString() });
  const cost = costUsd(llm.usage, project.settings.generation.prices[record.model]);
  reporter.print(
    // As a direct run counts them: skipped, an answer refused by the checks; failed, none to judge.
    `batch ${record.batchId}: ${summary.stored.length} stored, ${refusedCount(summary.failed)} skipped, ${summary.failed.length - refusedCount(summary.failed)} failed, ${existing.done.size} stored before; ${summary.usage.promptTokens} + ${summary.usage.completionTokens} tokens, ${
      cost === undefined
        ? `cost unknown (no price for ${record.model} in site.json)`
        : `about $${cost.toFixed(4)} (batch answers at ${BATCH_DISCOUNT * 100}% of the price)`
    }`,
  );
  return { batchId: record.batchId, status: summary.failed.length ? 'incomplete' : 'collected', summary };
}

interface BatchLine {
  custom_id?: string;
  response?: {
    status_code: number;
    body?: Parameters<typeof completionOf>[0] & { usage?: { prompt_tokens?: number; completion_tokens?: number } };
  };
}
