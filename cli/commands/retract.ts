/** felt retract: flags → RetractOptions → retract(). */
import type { Command } from 'commander';
import { addExamples } from '../help.ts';
import { addCommonFlags, collect, reporterFor, storageChoice, type CommonFlags } from './pipelineOptions.ts';

interface Flags extends CommonFlags {
  slug: string;
  locale?: string[];
  redirect?: string;
  reason?: string;
  by?: string;
  allowExternal?: boolean;
  keepDev?: boolean;
  dryRun?: boolean;
}

export function registerRetract(program: Command): void {
  const command = addCommonFlags(
    program
      .command('retract')
      .description(
        'take a published article back: record who, when and why in production, delete it there (and from dev); the next pull and build answer its address with 410 Gone or a redirect',
      )
      .requiredOption('--slug <slug>', 'the article to take back')
      .option('--locale <locale>', 'only this content locale (repeatable; default: every locale that has the slug)', collect)
      .option(
        '--redirect <path>',
        'send readers to this page of the site instead of the gone page (an /articles/ page must be published in each locale retracted)',
      )
      .option('--allow-external', 'let --redirect be an address on another site')
      .option('--reason <text>', 'why, kept in the record (not shown to readers)')
      .option('--by <name>', 'who retracts (default: FELT_OPERATOR, else your login name)')
      .option('--keep-dev', 'leave the article in the dev bucket')
      .option('--dry-run', 'print the plan only'),
  ).action(async (flags: Flags) => {
    const reporter = reporterFor(flags);
    const { retract } = await import('../retract.ts');
    const result = await retract({
      contentDir: flags.content,
      slug: flags.slug,
      locales: flags.locale,
      redirect: flags.redirect,
      reason: flags.reason,
      by: flags.by,
      allowExternal: flags.allowExternal,
      keepDev: flags.keepDev,
      dryRun: flags.dryRun,
      storage: storageChoice(flags),
      reporter,
    });
    reporter.json(result);
  });
  addExamples(command, [
    ['felt retract --slug bad-odds --reason "wrong odds" --dry-run', 'the plan: the record, and what is deleted'],
    ['felt retract --slug bad-odds --reason "wrong odds"', 'take it back; its address answers 410 Gone after pull and build'],
    ['felt retract --slug old-guide --redirect /articles/new-guide', 'send its readers to another article instead'],
  ]);
}
