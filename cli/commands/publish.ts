/** felt publish: flags → PublishOptions → publish(). */
import type { Command } from 'commander';
import { addCommonFlags, collect, finish, reporterFor, storageChoice, terminalConfirm, type CommonFlags } from './pipelineOptions.ts';

interface Flags extends CommonFlags {
  locale?: string[];
  slug?: string[];
  all?: boolean;
  yes?: boolean;
  dryRun?: boolean;
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
      .option('--dry-run', 'print the plan only'),
  ).action(async (flags: Flags) => {
    const reporter = reporterFor(flags);
    const { publish } = await import('../publish.ts');
    const result = await publish({
      contentDir: flags.content,
      locales: flags.locale,
      slugs: flags.slug,
      all: flags.all,
      yes: flags.yes,
      dryRun: flags.dryRun,
      confirm: terminalConfirm(),
      storage: storageChoice(flags),
      reporter,
    });
    if (result.written) reporter.print(`published ${result.copied.length} to ${result.target}`);
    finish(reporter, result, result.failed, 'publish');
  });
}
