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
import { scanExisting } from './existing.ts';
import { Llm, llmEnv } from './llm.ts';
import { makePlan, type PlanRequest } from './plan.ts';
import { PromptBook } from './prompts.ts';
import { loadLocaleRules } from './rules.ts';
import { devBucket, prepare, summarise, workerContext, workerPool, type GenerateOptions, type Prepared, type RunSummary } from './run.ts';
import { produce, slotMessages, type Outcome } from './worker.ts';

interface BatchRecord {
  batchId: string;
  inputFileId: string;
  request: PlanRequest & { category?: string; subcategory?: string };
  model: string;
  slots: number[];
  status: 'submitted' | 'collected' | 'failed' | 'expired' | 'cancelled';
  submittedAt: string;
  collectedAt?: string;
}

export interface SubmitResult {
  runId: string;
  batchId: string | null;
  slots: number[];
  alreadyDone: number;
  alreadyBatched: number;
}

const RECORDS = 'batches/';
const JSON_TYPE = 'application/json';

export async function submitBatch(options: GenerateOptions): Promise<SubmitResult> {
  const reporter = options.reporter ?? createReporter();
  const prepared = await prepare(options);
  const { project, plan } = prepared;
  const llm = new Llm({ ...llmEnv(), ...options.llm, model: prepared.model });
  const bucket = await devBucket(project, options.storage);
  const existing = await scanExisting(project.contentDir, plan.locale, bucket, plan.runId);
  const records = await readRecords(bucket);
  const batched = new Set(records.filter((r) => r.status === 'submitted' && r.request.runId === plan.runId).flatMap((r) => r.slots));
  const missing = plan.slots.filter((s) => !existing.done.has(s.index) && !batched.has(s.index));
  const result: SubmitResult = {
    runId: plan.runId,
    batchId: null,
    slots: missing.map((s) => s.index),
    alreadyDone: existing.done.size,
    alreadyBatched: batched.size,
  };
  if (!missing.length) {
    reporter.print(`run ${plan.runId}: nothing to submit (${existing.done.size} stored, ${batched.size} in a batch not yet collected)`);
    return result;
  }
  const lines: string[] = [];
  for (const slot of missing) {
    const messages = await slotMessages(slot, { ...prepared, registry: existing.registry, siteTitle: project.settings.title });
    lines.push(JSON.stringify({ custom_id: `${plan.runId}:${slot.index}`, method: 'POST', url: '/v1/chat/completions', body: llm.body(messages) }));
  }
  const upload = await toFile(Buffer.from(`${lines.join('\n')}\n`), `felt-${plan.runId}.jsonl`);
  const file = await llm.call(() => llm.client.files.create({ file: upload, purpose: 'batch' }));
  const batch = await llm.call(() =>
    llm.client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { felt_run: plan.runId } }),
  );
  const record: BatchRecord = {
    batchId: batch.id,
    inputFileId: file.id,
    request: { locale: plan.locale, category: options.category, subcategory: options.subcategory, count: options.count, date: plan.date, runId: plan.runId },
    model: prepared.model,
    slots: result.slots,
    status: 'submitted',
    submittedAt: new Date().toISOString(),
  };
  await bucket.write(`${RECORDS}${batch.id}.json`, Buffer.from(JSON.stringify(record, null, 2)), { contentType: JSON_TYPE, ifGenerationMatch: 0 });
  reporter.print(`run ${plan.runId}: batch ${batch.id} submitted with ${plural(missing.length, 'article')}; collect it later with felt generate --collect`);
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
  const records = (await readRecords(bucket)).filter((r) => r.status === 'submitted');
  const result: CollectResult = { batches: [] };
  if (!records.length) reporter.print('no batch is waiting to be collected');
  for (const record of records) result.batches.push(await collectOne(record, bucket, options, reporter));
  return result;
}

async function collectOne(record: BatchRecord, bucket: Bucket, options: CollectOptions, reporter: Reporter): Promise<CollectResult['batches'][number]> {
  const project = await loadProject(options.contentDir);
  const plan = makePlan(project.categories, record.request);
  const prepared: Prepared = { project, plan, rules: await loadLocaleRules(plan.locale), prompts: new PromptBook(options.promptsDir), model: record.model };
  const llm = new Llm({ ...llmEnv(), ...options.llm, model: record.model });
  const batch = await llm.call(() => llm.client.batches.retrieve(record.batchId));
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
  const answers = new Map<number, string>();
  if (batch.output_file_id) {
    const text = await (await llm.call(() => llm.client.files.content(batch.output_file_id!))).text();
    for (const line of text.split('\n').filter((l) => l.trim())) {
      const entry = JSON.parse(line) as {
        custom_id: string;
        response?: {
          status_code: number;
          body: { choices?: { message?: { content?: string } }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
        };
      };
      const slot = Number(entry.custom_id.split(':')[1]);
      const content = entry.response?.status_code === 200 ? entry.response.body.choices?.[0]?.message?.content : undefined;
      if (content !== undefined) {
        answers.set(slot, content);
        llm.count(entry.response!.body.usage);
      }
    }
  }
  const existing = await scanExisting(project.contentDir, plan.locale, bucket, plan.runId);
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
          outcome = { slot: slot.index, status: 'failed', reason: error instanceof FeltError ? error.message : String(error), attempts: 0 };
        }
        outcomes.push(outcome);
        progress.tick(outcome.status === 'stored' ? `stored ${outcome.object}` : `failed slot ${slot.index + 1}: ${outcome.reason}`);
      }),
    ),
  );
  progress.done();
  const summary = summarise(prepared, llm, existing, outcomes, false);
  if (!summary.failed.length) await saveRecord(bucket, { ...record, status: 'collected', collectedAt: new Date().toISOString() });
  reporter.print(`batch ${record.batchId}: ${summary.stored.length} stored, ${summary.failed.length} failed, ${existing.done.size} stored before`);
  return { batchId: record.batchId, status: summary.failed.length ? 'incomplete' : 'collected', summary };
}

async function readRecords(bucket: Bucket): Promise<(BatchRecord & { generation: string })[]> {
  const records = [];
  for (const object of await bucket.list(RECORDS)) {
    const record = JSON.parse((await bucket.read(object.name)).toString('utf8')) as BatchRecord;
    records.push({ ...record, generation: object.generation });
  }
  return records;
}

async function saveRecord(bucket: Bucket, record: BatchRecord & { generation?: string }): Promise<void> {
  const { generation, ...data } = record;
  await bucket.write(`${RECORDS}${record.batchId}.json`, Buffer.from(JSON.stringify(data, null, 2)), { contentType: JSON_TYPE, ifGenerationMatch: generation });
}
