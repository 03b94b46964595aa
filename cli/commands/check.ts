/**
 * felt check: flags → checkContent() → every problem, one per line with
 * file:line and field, then a summary. Errors end in the CLI's one error line
 * and exit code 1; warnings alone pass. --json prints the whole report.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { FeltError, formatProblem, type Problem } from '../../shared/errors.ts';
import { CONTENT_LOCALES } from '../../shared/types.ts';
import type { CheckReport } from '../../site/content/check.ts';
import { displayPath, LOCALES_DIR } from '../../shared/paths.ts';
import { duringStage } from '../../shared/stageErrors.ts';
import { loadingContent } from '../../site/build/stages.ts';
import { addExamples, colorEnabled, paint } from '../help.ts';
import { redactSecrets } from '../secrets.ts';

interface Flags {
  content: string;
  json?: boolean;
}

export function registerCheck(program: Command): void {
  const command = program
    .command('check')
    .description('validate content, settings, categories, authors and UI strings; report every problem at once')
    .option('--content <dir>', 'content folder', 'content')
    .option('--json', 'print the report as JSON (exit code 1 when there are errors)')
    .action(async (flags: Flags) => {
      const report = await checkAll(path.resolve(flags.content));
      if (flags.json) console.log(JSON.stringify(report, null, 2));
      else printReport(report);
      if (!report.ok) {
        throw new FeltError('CONTENT_INVALID', `${count(report.errors, 'error')} in content or UI strings`, {
          hint: 'fix the problems listed above and run `felt check` again',
        });
      }
    });
  addExamples(command, [
    ['felt check', 'check content/ and locales/'],
    ['felt check --content ../staging/content', 'another content folder'],
    ['felt check --json | jq ".problems[].file"', 'for scripts: the files with problems'],
  ]);
}

/** The content and UI checks, plus the generation rules in locales/generation/ that `felt generate` reads. */
export async function checkAll(contentDir: string): Promise<CheckReport> {
  // Loaded when checking, not with the CLI: the content schemas and parsers are the site's.
  const [{ checkContent }, { loadLocaleRules }] = await Promise.all([import('../../site/content/check.ts'), import('../generate/rules.ts')]);
  const report = await duringStage(loadingContent(contentDir), () => checkContent({ contentDir }));
  const rules: Problem[] = [];
  for (const locale of CONTENT_LOCALES) {
    await loadLocaleRules(locale).catch((error: unknown) => {
      if (!(error instanceof FeltError)) throw error;
      const file = error.location.file ?? path.join(LOCALES_DIR, 'generation', `${locale}.json`);
      rules.push({ file: displayPath(file), field: error.location.field, severity: 'error', message: error.message, hint: error.hint });
    });
  }
  const problems = [...report.problems, ...rules];
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { ...report, ok: errors === 0, errors, warnings: problems.length - errors, problems };
}

function printReport(report: CheckReport): void {
  const out = paint(colorEnabled(process.stdout));
  for (const problem of report.problems) {
    const label = problem.severity === 'error' ? out.red('error  ') : out.yellow('warning');
    console.log(redactSecrets(`${label} ${formatProblem(problem)}`));
  }
  if (report.problems.length) console.log('');
  const summary = report.summary;
  const checked = summary
    ? `${count(
        Object.values(summary.articles).reduce((a, b) => a + b, 0),
        'article',
      )} (${CONTENT_LOCALES.map((l) => `${l} ${summary.articles[l]}`).join(', ')}), ${count(summary.authors, 'author')}, ${count(summary.categories, 'category', 'categories')}, ${count(summary.uiStrings, 'UI string')} in 4 display locales`
    : 'content could not be loaded';
  const verdict = report.ok ? out.green('✓ no errors') : out.red(`✗ ${count(report.errors, 'error')}`);
  const warnings = report.warnings ? `, ${out.yellow(count(report.warnings, 'warning'))}` : '';
  console.log(`${verdict}${warnings}: ${checked}`);
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
