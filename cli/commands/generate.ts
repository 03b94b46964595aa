/**
 * felt generate: flags → GenerateOptions → generate(), submitBatch() or
 * collectBatches(). Ctrl-C stops starting new articles; those already
 * stored are kept and a rerun of the same command finishes the rest.
 *
 * How a run ends (shared/exitCodes.ts): 0 when every article was written;
 * 2 when the run finished but skipped articles (each listed, then one line),
 * or stopped at its budget with work left; 1 when the circuit breaker stopped
 * it through a provider outage, or when nothing was written and every failure
 * was the provider's or the storage's (no answer was even judged).
 */
import type { Command } from 'commander';
import { FeltError } from '../../shared/errors.ts';
import { EXIT } from '../../shared/exitCodes.ts';
import type { GenerateOptions, RunSummary } from '../generate/run.ts';
import { refusedCount } from '../generate/notWritten.ts';
import { plural } from '../report.ts';
import { runEditorial, type EditorialFlags } from './generateEditorial.ts';
import { addCommonFlags, isoDateOption, positiveInt, reporterFor, storageChoice, type CommonFlags } from './pipelineOptions.ts';

interface Flags extends CommonFlags, EditorialFlags {
  locale?: string;
  category?: string;
  subcategory?: string;
  count?: number;
  concurrency: number;
  model?: string;
  attempts: number;
  timeout: number;
  run?: string;
  runId?: string;
  maxCost?: number;
  breaker?: number;
  date?: string;
  dryRun?: boolean;
  batch?: boolean;
  collect?: boolean;
}

export function registerGenerate(program: Command): void {
  addCommonFlags(
    program
      .command('generate')
      .description('write new articles with an LLM into the dev bucket (OPENAI_BASE_URL, OPENAI_API_KEY)')
      .option('--locale <locale>', 'content locale: en_US, ru_RU or tr_TR')
      .option('--category <key>', 'a category key or slug (default: every category)')
      .option('--subcategory <key>', 'a subcategory key or slug (default: the subcategories the locale has fewest articles in)')
      .option('--count <n>', 'articles to write', positiveInt('--count'))
      .option('--concurrency <n>', 'requests at a time', positiveInt('--concurrency'), 4)
      .option('--model <name>', 'model (default: content/site.json generation.model)')
      .option('--attempts <n>', 'answers asked per article before it fails', positiveInt('--attempts'), 3)
      .option('--timeout <seconds>', 'per request', positiveInt('--timeout'), 120)
      .option('--run-id <id>', 'run id (default: the date, with the --category/--subcategory filter): a rerun with it finishes that run')
      .option('--run <id>', 'the same as --run-id (older name)')
      .option('--max-cost <usd>', 'stop before the run would spend more than this (default: site.json generation.budget)', positiveNumber('--max-cost'))
      .option('--breaker <n>', 'stop after this many consecutive provider failures (default: generation.breaker, else 5)', positiveInt('--breaker'))
      .option('--date <yyyy-mm-dd>', 'article date (default: today, UTC)', isoDateOption('--date'))
      .option('--dry-run', 'print the coverage table, the plan and the prompts; call nothing')
      .option('--batch', "submit the articles through the provider's Batch API")
      .option('--collect', 'fetch, check and store the results of submitted batches'),
  ).action(async (flags: Flags) => {
    refuseBesideCollect(flags);
    const reporter = reporterFor(flags);
    const controller = new AbortController();
    const onInterrupt = () => {
      reporter.note('interrupted: finishing nothing new; stored articles are kept');
      controller.abort(new FeltError('INTERRUPTED', 'interrupted'));
    };
    process.once('SIGINT', onInterrupt);
    try {
      // Loaded on use: the LLM and storage clients are slow to load and other commands never need them.
      const [{ generate }, { collectBatches, submitBatch }] = await Promise.all([import('../generate/run.ts'), import('../generate/batch.ts')]);
      const common = {
        contentDir: flags.content,
        storage: storageChoice(flags),
        reporter,
        attempts: flags.attempts,
        concurrency: flags.concurrency,
        signal: controller.signal,
        llm: { timeoutMs: flags.timeout * 1000 },
      };
      if (await runEditorial(flags, common, reporter)) return;
      if (flags.collect) {
        const result = await collectBatches(common);
        reporter.json(result);
        // As in a direct run: skipped articles are listed and the collection exits 2; a rerun of --collect asks them again.
        const skipped = result.batches.flatMap((b) => (b.summary?.failed ?? []).map((f) => ({ batch: b.batchId, locale: b.summary!.locale, ...f })));
        for (const f of skipped) {
          reporter.note(
            `${f.cause === 'checks' ? 'skipped' : 'failed'}: ${f.locale} ${f.batch} slot ${f.slot + 1} (${f.category}/${f.subcategory}${f.slug ? `, slug "${f.slug}"` : ''}): ${f.reason}`,
          );
        }
        if (skipped.length) {
          reporter.note(
            `felt: collect: ${plural(skipped.length, 'article')} not written, ${notWrittenCounts(skipped)} (listed above); felt generate --collect asks them again`,
          );
          process.exitCode = EXIT.doneWithSkips;
        }
        return;
      }
      if (!flags.locale || !flags.count) throw new FeltError('BAD_OPTION', 'felt generate needs --locale and --count (or --collect)');
      const options: GenerateOptions = {
        ...common,
        locale: flags.locale,
        category: flags.category,
        subcategory: flags.subcategory,
        count: flags.count,
        model: flags.model,
        runId: flags.runId ?? flags.run,
        date: flags.date,
        dryRun: flags.dryRun,
        maxCostUsd: flags.maxCost,
        breakerLimit: flags.breaker,
      };
      if (flags.batch && !flags.dryRun) {
        const submitted = await submitBatch(options);
        reporter.json(submitted);
        if (!submitted.overBudget) return;
        reporter.note(
          `felt: batch: ${plural(submitted.overBudget, 'article')} left out, over the budget of $${submitted.budgetUsd}; the next felt generate --batch of this run submits them`,
        );
        process.exitCode = EXIT.doneWithSkips;
        return;
      }
      const result = await generate(options);
      if ('dryRun' in result) return reporter.json(result);
      report(result, reporter);
      if (result.interrupted) {
        reporter.json(result);
        throw new FeltError(
          'INTERRUPTED',
          `interrupted with ${plural(result.planned - result.alreadyDone - result.stored.length - result.failed.length, 'article')} not written`,
        );
      }
      reporter.json(result);
      endRun(result, reporter);
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  });
}

function report(result: RunSummary, reporter: ReturnType<typeof reporterFor>): void {
  const { usage } = result;
  const cost = usage.costUsd === null ? 'cost unknown (no price for this model in site.json)' : `about $${usage.costUsd.toFixed(4)}`;
  // Calls that never connected sent nothing and cost nothing; those that timed out or dropped after sending may have been billed.
  const failedCalls = usage.failedRequests
    ? ` (and ${[
        plural(usage.failedRequests, 'failed call'),
        usage.unconnectedRequests ? `${usage.unconnectedRequests} could not connect` : '',
        usage.estimatedPromptTokens && !usage.unreportedRequests
          ? `about ${usage.estimatedPromptTokens} prompt tokens counted for those that timed out or dropped`
          : '',
      ]
        .filter(Boolean)
        .join(', ')})`
    : '';
  const unreported = usage.unreportedRequests
    ? `; ${plural(usage.unreportedRequests, 'answer')} without a usable token count, about ${usage.estimatedPromptTokens + usage.estimatedCompletionTokens} tokens counted from the sizes${usage.failedRequests ? ' and the calls lost' : ''}`
    : '';
  // Skipped: an answer was judged and refused (the checks); failed: no answer to judge (the provider, the storage).
  const refused = refusedCount(result.failed);
  reporter.print(
    `run ${result.runId}: ${result.stored.length} stored, ${refused} skipped, ${result.failed.length - refused} failed, ${result.alreadyDone} done before; ${usage.requests} requests${failedCalls}, ${usage.promptTokens} + ${usage.completionTokens} tokens${unreported}, ${cost}`,
  );
  for (const s of result.stored) {
    const nearest = s.nearest ? `, nearest ${s.nearest} at ${s.similarity.toFixed(2)}` : '';
    reporter.print(`  stored ${s.slug} (${s.category}/${s.subcategory}; ${plural(s.attempts, 'attempt')}, ${s.model}${nearest})`);
  }
}

/**
 * Skipped articles are listed one a line (locale, slot, place, slug, reason) and the run exits 2;
 * a stop with work left says so in one line.
 */
function endRun(result: RunSummary, reporter: ReturnType<typeof reporterFor>): void {
  const skippedLines = () => {
    for (const f of result.failed) {
      reporter.note(
        `${f.cause === 'checks' ? 'skipped' : 'failed'}: ${result.locale} slot ${f.slot + 1} (${f.category}/${f.subcategory}${f.slug ? `, slug "${f.slug}"` : ''}): ${f.reason}`,
      );
    }
  };
  // Nothing listens at the endpoint: one line naming it, whatever else happened; the catalogue's hint says to start the server and run again.
  if (result.stopped?.reason === 'unreachable') {
    skippedLines();
    const notWritten = result.notWritten ? `; ${plural(result.notWritten, 'article')} not written` : '';
    throw new FeltError('LLM_UNREACHABLE', `generate stopped: ${result.stopped.message}${notWritten}`);
  }
  // Nothing written and no answer judged: the provider or the storage failed every time, which is a failure, not a skip.
  if (!result.stored.length && result.failed.length && result.failed.every((f) => f.cause !== 'checks')) {
    for (const f of result.failed) reporter.note(`failed: slot ${f.slot + 1}: ${f.reason} (${result.locale} ${f.category}/${f.subcategory})`);
    throw new FeltError('INCOMPLETE', `generate: ${result.failed.length} failed (listed above)`);
  }
  skippedLines();
  const left = result.notWritten ? `; ${plural(result.notWritten, 'article')} not written, a rerun of the same command writes them` : '';
  if (result.stopped?.reason === 'breaker') throw new FeltError('PROVIDER_OUTAGE', `generate ${result.stopped.message}${left}`);
  const skipped = result.failed.length
    ? `${plural(result.failed.length, 'article')} of ${result.planned} not written, ${notWrittenCounts(result.failed)} (listed above)`
    : '';
  // One line, whatever happened: skips, a stop at the budget, or both.
  if (result.stopped) reporter.note(`felt: generate${skipped ? `: ${skipped};` : ''} ${result.stopped.message}${left}`);
  else if (skipped) reporter.note(`felt: generate: ${skipped}; ${result.stored.length ? 'the others are stored' : 'none was stored'}`);
  else return;
  process.exitCode = EXIT.doneWithSkips;
}

/** The flags --collect does not read: it stores every submitted batch as that batch was asked. */
const NOT_WITH_COLLECT: Partial<Record<keyof Flags, string>> = {
  locale: '--locale',
  category: '--category',
  subcategory: '--subcategory',
  count: '--count',
  model: '--model',
  runId: '--run-id',
  run: '--run',
  maxCost: '--max-cost',
  breaker: '--breaker',
  date: '--date',
  dryRun: '--dry-run',
  slug: '--slug',
  replace: '--replace',
  translate: '--translate',
  to: '--to',
};

/**
 * --collect beside a flag it does not read was run without a word: `--collect --count 5` stored
 * every batch, `--collect --dry-run` wrote articles, `--batch --collect` submitted nothing. Refused
 * before anything is opened.
 */
function refuseBesideCollect(flags: Flags): void {
  if (!flags.collect) return;
  if (flags.batch)
    throw new FeltError('BAD_OPTION', '--batch and --collect ask for different things', {
      hint: 'give --batch (with --locale and --count) to submit articles, and --collect alone later to store what the provider wrote',
    });
  const ignored = Object.entries(NOT_WITH_COLLECT)
    .filter(([key]) => flags[key as keyof Flags] !== undefined)
    .map(([, flag]) => flag);
  if (ignored.length)
    throw new FeltError('BAD_OPTION', `--collect stores every submitted batch as it was asked, so ${ignored.join(', ')} would be ignored`, {
      hint: 'run felt generate --collect without them (--attempts, --concurrency, --timeout, --storage and --json go with it)',
    });
}

function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new FeltError('BAD_OPTION', `${name} must be a number above 0, not "${value}"`);
    return n;
  };
}

/** "2 skipped and 1 failed": the articles not written, by why. */
function notWrittenCounts(failed: readonly { cause: string }[]): string {
  const refused = refusedCount(failed);
  const lost = failed.length - refused;
  return [refused ? `${refused} skipped` : '', lost ? `${lost} failed` : ''].filter(Boolean).join(' and ');
}
