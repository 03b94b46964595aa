/**
 * felt generate: flags → GenerateOptions → generate(), submitBatch() or
 * collectBatches(). Ctrl-C stops starting new articles; those already
 * stored are kept and a rerun of the same command finishes the rest.
 */
import type { Command } from 'commander';
import { FeltError } from '../../shared/errors.ts';
import type { GenerateOptions, RunSummary } from '../generate/run.ts';
import { plural } from '../report.ts';
import { runEditorial, type EditorialFlags } from './generateEditorial.ts';
import { addCommonFlags, finish, positiveInt, reporterFor, storageChoice, type CommonFlags } from './pipelineOptions.ts';

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
      .option('--subcategory <key>', 'a subcategory key or slug (default: "other")')
      .option('--count <n>', 'articles to write', positiveInt('--count'))
      .option('--concurrency <n>', 'requests at a time', positiveInt('--concurrency'), 4)
      .option('--model <name>', 'model (default: content/site.json generation.model)')
      .option('--attempts <n>', 'answers asked per article before it fails', positiveInt('--attempts'), 3)
      .option('--timeout <seconds>', 'per request', positiveInt('--timeout'), 120)
      .option('--run <id>', 'run id (default: derived from the flags and the date, so a rerun resumes)')
      .option('--date <yyyy-mm-dd>', 'article date (default: today, UTC)')
      .option('--dry-run', 'print the plan and the prompts; call nothing')
      .option('--batch', "submit the articles through the provider's Batch API")
      .option('--collect', 'fetch, check and store the results of submitted batches'),
  ).action(async (flags: Flags) => {
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
        const failures = result.batches.flatMap((b) => (b.summary?.failed ?? []).map((f) => ({ name: `${b.batchId} slot ${f.slot + 1}`, reason: f.reason })));
        return finish(reporter, result, failures, 'collect');
      }
      if (!flags.locale || !flags.count) throw new FeltError('BAD_OPTION', 'felt generate needs --locale and --count (or --collect)');
      const options: GenerateOptions = {
        ...common,
        locale: flags.locale,
        category: flags.category,
        subcategory: flags.subcategory,
        count: flags.count,
        model: flags.model,
        runId: flags.run,
        date: flags.date,
        dryRun: flags.dryRun,
      };
      if (flags.batch && !flags.dryRun) return finish(reporter, await submitBatch(options), [], 'batch');
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
      finish(
        reporter,
        result,
        result.failed.map((f) => ({ name: `slot ${f.slot + 1}`, reason: f.reason })),
        'generate',
      );
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  });
}

function report(result: RunSummary, reporter: ReturnType<typeof reporterFor>): void {
  const cost = result.usage.costUsd === null ? 'cost unknown (no price for this model in site.json)' : `about $${result.usage.costUsd.toFixed(4)}`;
  reporter.print(
    `run ${result.runId}: ${result.stored.length} stored, ${result.failed.length} failed, ${result.alreadyDone} done before; ${result.usage.requests} requests, ${result.usage.promptTokens} + ${result.usage.completionTokens} tokens, ${cost}`,
  );
}
