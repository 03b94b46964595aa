/** felt pull: flags → PullOptions → pull(). */
import type { Command } from 'commander';
import { FeltError } from '../../shared/errors.ts';
import { addCommonFlags, collect, finishWithSkips, reporterFor, storageChoice, type CommonFlags } from './pipelineOptions.ts';

interface Flags extends CommonFlags {
  env: string;
  locale?: string[];
  delete?: boolean;
  yes?: boolean;
  force?: boolean;
  dryRun?: boolean;
  snapshot?: boolean;
}

export function registerPull(program: Command): void {
  addCommonFlags(
    program
      .command('pull')
      .description("sync a bucket's articles into content/articles (dev: content.dev/articles), downloading only what changed")
      .option('--env <env>', 'prod, or dev: written to content.dev/, never to content/, so no production build reads it', 'prod')
      .option('--locale <locale>', 'only this content locale (repeatable)', collect)
      .option('--delete', 'delete local articles that are not in the bucket')
      .option('--yes', 'with --delete, remove every local article even when the bucket lists none (refused otherwise)')
      .option('--force', 'replace (with --delete, remove) local articles changed here since the last pull; kept otherwise')
      .option('--dry-run', 'print the plan only')
      .option(
        '--snapshot',
        "take the articles from the bucket's packed state when more than 50 of a locale are to be downloaded (a fresh clone, a new runner), and keep that state current (state/ in the bucket)",
      ),
  ).action(async (flags: Flags) => {
    if (flags.env !== 'prod' && flags.env !== 'dev') throw new FeltError('BAD_OPTION', `--env must be prod or dev, not "${flags.env}"`);
    const reporter = reporterFor(flags);
    const { pull } = await import('../pull.ts');
    const result = await pull({
      contentDir: flags.content,
      env: flags.env,
      locales: flags.locale,
      delete: flags.delete,
      yes: flags.yes,
      force: flags.force,
      dryRun: flags.dryRun,
      snapshot: flags.snapshot,
      storage: storageChoice(flags),
      reporter,
    });
    if (!result.dryRun)
      reporter.print(
        `pulled ${result.download.length}${result.fromSnapshot ? ` (${result.fromSnapshot} from the state snapshot)` : ''}, deleted ${result.remove.length + (result.retracted?.removed.length ?? 0)}${result.retracted?.removed.length ? ` (${result.retracted.removed.length} retracted)` : ''}, ${result.unchanged} unchanged`,
      );
    finishWithSkips(reporter, result, result.failed, result.skipped, 'pull');
  });
}
