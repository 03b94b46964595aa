/**
 * Help that teaches, and colour only where it is wanted. Every command's help
 * ends with examples in one layout (addExamples); a command registered
 * without any gets the ones in DEFAULT_EXAMPLES, so `felt <command> --help`
 * always shows how the command is really used. Colour follows the common
 * conventions: NO_COLOR (https://no-color.org) or FORCE_COLOR=0 turn it off,
 * FORCE_COLOR turns it on, otherwise only a terminal gets it.
 */
import type { Command } from 'commander';
import type { EventEmitter } from 'node:events';

export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR !== undefined) return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export interface Paint {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

export function paint(enabled: boolean): Paint {
  const sgr = (open: number, close: number) => (text: string) => (enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39), bold: sgr(1, 22), dim: sgr(2, 22) };
}

export type Example = readonly [commandLine: string, what: string];

/** Appends "Examples:" to a command's help, aligned, one per line. */
export function addExamples(command: Command, examples: readonly Example[]): Command {
  return command.addHelpText('after', () => formatExamples(examples));
}

export function formatExamples(examples: readonly Example[]): string {
  const width = Math.max(...examples.map(([line]) => line.length));
  return `\nExamples:\n${examples.map(([line, what]) => `  $ ${line.padEnd(width)}   ${what}`).join('\n')}`;
}

/** Examples for commands whose files add none (the pipeline commands). */
const DEFAULT_EXAMPLES: Record<string, readonly Example[]> = {
  generate: [
    ['felt generate --dry-run --locale en_US --count 3', 'show the plan and the prompts; call nothing'],
    ['felt generate --locale en_US --count 10', 'write 10 English articles into the dev bucket'],
    ['felt generate --locale tr_TR --category pokerGuides --subcategory cashGameTactics --count 2', 'two Turkish articles on one subcategory'],
    ['felt generate --locale ru_RU --count 500 --batch', "large runs: submit through the provider's Batch API"],
    ['felt generate --collect', 'later: fetch, check and store the batch results'],
    ['felt generate --slug bankroll-basics --replace', 'write one article again; its old text is kept as a version'],
    ['felt generate --translate bankroll-basics --to ru_RU,tr_TR', 'its Russian and Turkish versions, one translationKey'],
  ],
  publish: [
    ['felt publish --all --dry-run', 'what would change in production'],
    ['felt publish --slug bankroll-basics --yes', 'promote one article'],
    ['felt publish --all --locale en_US --yes', 'promote every English article (CI)'],
    ['felt publish --all --yes --force', 'also overwrite conflicts: articles edited or deleted in production since'],
    ['felt publish --slug bankroll-basics --version 1 --yes', 'undo a regeneration: bring back and publish version 1'],
  ],
  pull: [
    ['felt pull', "sync production's articles into content/articles"],
    ['felt pull --env dev --locale tr_TR', 'the Turkish dev articles into content.dev/ (never content/)'],
    ['felt pull --delete --json', 'mirror the bucket exactly, for scripts'],
  ],
  deploy: [
    ['felt deploy --bucket www-feltmagazine --dry-run', 'the upload plan'],
    ['felt deploy --bucket www-feltmagazine --delete', 'upload what changed, remove what is gone'],
    ['felt deploy --bucket www-feltmagazine --delete --max-delete 50', 'let --delete remove up to half of the bucket'],
  ],
};

const PROGRAM_EXAMPLES: readonly Example[] = [
  ['felt check', 'validate content/ and the UI strings'],
  ['felt build && felt serve', 'build the site into dist/ and look at it on http://127.0.0.1:8080'],
  ['felt generate --locale en_US --count 10', 'write articles into the dev bucket'],
  ['felt preview', "tomorrow's site with the dev bucket's drafts marked, before publishing"],
  ['felt publish --all --yes; felt pull', 'promote them to production and sync content/ (publish exits 2 when it skipped an invalid article: still pull)'],
  ['felt deploy --bucket www-feltmagazine', 'upload the built site'],
];

/**
 * Applied once the commands are registered: headings in bold on a terminal
 * (commander strips the styles when colour is off), the program's examples,
 * and default examples for any command that has none of its own.
 */
export function teachingHelp(program: Command): void {
  const colors = paint(true);
  for (const command of [program, ...program.commands]) {
    command.configureHelp({ ...command.configureHelp(), styleTitle: colors.bold });
    command.configureOutput({ getOutHasColors: () => colorEnabled(process.stdout), getErrHasColors: () => colorEnabled(process.stderr) });
  }
  addExamples(program, PROGRAM_EXAMPLES);
  program.addHelpText('after', '\nEvery command explains itself: felt <command> --help');
  for (const command of program.commands) {
    const examples = DEFAULT_EXAMPLES[command.name()];
    if (examples && !hasHelpAfter(command)) addExamples(command, examples);
  }
}

/** commander keeps addHelpText('after') as an "afterHelp" listener (a Command is an EventEmitter). */
function hasHelpAfter(command: Command): boolean {
  return (command as unknown as EventEmitter).listenerCount('afterHelp') > 0;
}
