/** felt publish: flags → PublishOptions → publish(). */
import type { Command } from 'commander';
import { FeltError } from '../../shared/errors.ts';
import { addCommonFlags, collect, finishWithSkips, positiveInt, reporterFor, storageChoice, terminalConfirm, type CommonFlags } from './pipelineOptions.ts';

interface Flags extends CommonFlags {
  locale?: string[];
  slug?: string[];
  all?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  force?: boolean;
  delete?: boolean;
  version?: number;
}

export function registerPublish(program: Command): void {
  addCommonFlags(
    program
      .command('publish')
      .description('copy articles from the dev bucket to production, showing the plan first')
      .option('--locale <locale>', 'only this content locale (repeatable)', collect)
      .option('--slug <slug>', 'only this article (repeatable)', collect)
      .option('--all', 'every article of the dev bucket')
      .option('--yes', 'write production without asking')
      .option('--dry-run', 'print the plan only')
      .option('--delete', 'delete from production the articles felt published that are no longer in dev')
      .option('--force', 'overwrite or bring back articles changed or deleted in production since felt published them')
      .option('--version <n>', 'with one --slug: bring back version N of its history (kept by generate --replace), then publish it', positiveInt('--version')),
  ).action(async (flags: Flags) => {
    const reporter = reporterFor(flags);
    if (flags.version !== undefined) {
      // Undo of a regeneration: the kept version becomes the dev article again, then publish promotes it (cli/restoreVersion.ts).
      if (flags.slug?.length !== 1 || flags.all) throw new FeltError('BAD_OPTION', '--version needs exactly one --slug (and no --all)');
      const { restoreVersion } = await import('../restoreVersion.ts');
      const restored = await restoreVersion({
        contentDir: flags.content,
        slug: flags.slug[0]!,
        version: flags.version,
        locales: flags.locale,
        dryRun: flags.dryRun,
        storage: storageChoice(flags),
        reporter,
      });
      if (flags.dryRun) return reporter.json(restored);
      flags.locale = [restored.locale];
    }
    const { publish } = await import('../publish.ts');
    const result = await publish({
      contentDir: flags.content,
      locales: flags.locale,
      slugs: flags.slug,
      all: flags.all,
      yes: flags.yes,
      dryRun: flags.dryRun,
      force: flags.force,
      delete: flags.delete,
      confirm: terminalConfirm(),
      storage: storageChoice(flags),
      reporter,
    });
    if (result.written) reporter.print(`published ${result.copied.length}, deleted ${result.deleted.length} in ${result.target}`);
    finishWithSkips(reporter, result, result.failed, result.skipped, 'publish');
  });
}
