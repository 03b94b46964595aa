/**
 * The felt command line: a thin shell over library functions. Each command
 * lives in cli/commands/ and registers itself here; this file owns the one
 * error boundary that turns expected failures into a single line and an exit
 * code.
 */
import { Command, CommanderError } from 'commander';
import { ContentError, FeltError, describeError, formatProblem } from '../shared/errors.ts';
import { environmentError } from '../shared/stageErrors.ts';
import { EXIT } from '../shared/exitCodes.ts';
import { causeChain } from './causeChain.ts';
import { redactProcessOutput, redactSecrets } from './secrets.ts';
import { registerBuild } from './commands/build.ts';
import { registerServe } from './commands/serve.ts';
import { registerGenerate } from './commands/generate.ts';
import { addEditorialFlags } from './commands/generateEditorial.ts';
import { registerPublish } from './commands/publish.ts';
import { registerPull } from './commands/pull.ts';
import { registerDeploy } from './commands/deploy.ts';
import { registerCheck } from './commands/check.ts';
import { registerDev } from './commands/dev.ts';
import { registerRetract } from './commands/retract.ts';
import { registerPreview } from './commands/preview.ts';
import { teachingHelp } from './help.ts';
import { oneLine, terminalSafe } from './terminalText.ts';

export function createProgram(): Command {
  const program = new Command('felt')
    .description('Content pipeline and static site generator for the felt magazine')
    .version(process.env.npm_package_version ?? '0.1.0')
    .showSuggestionAfterError(true)
    // commander's refusals (an unknown flag or command, a value not among the choices) as felt's own: one `felt:` line.
    .configureOutput({ outputError: (text, write) => write(`${commanderLine(text)}\n`) })
    // felt's own options (--version) only before a command's name: `felt publish --slug S --version 2` is publish's --version.
    .enablePositionalOptions()
    .exitOverride()
    // The command a failure's hint sends the reader to (`felt <command> --help` in the error catalogue).
    // preSubcommand: before the command's own flags are parsed, which can fail already (--threads 0).
    .hook('preSubcommand', (_program, command) => void (runningCommand = command.name()));
  registerBuild(program);
  registerServe(program);
  registerGenerate(program);
  // --replace and --translate (issue 12): flags of generate, kept in their own module.
  addEditorialFlags(program.commands.find((c) => c.name() === 'generate')!);
  registerPublish(program);
  registerPull(program);
  registerDeploy(program);
  registerCheck(program);
  registerDev(program);
  registerRetract(program);
  registerPreview(program);
  teachingHelp(program);
  return program;
}

/** `error: unknown option '--ouput'\n(Did you mean --out?)\n` → `felt: unknown option '--ouput' (did you mean --out?)`. */
function commanderLine(text: string): string {
  const [first = '', ...rest] = text.trim().split('\n');
  const more = rest.map((line) => line.trim().replace(/^\((\w)/, (_, letter: string) => `(${letter.toLowerCase()}`));
  return [`felt: ${first.replace(/^error: /, '')}`, ...more].join(' ');
}

let quietOnClosedPipe = false;
let runningCommand: string | undefined;

/** A failure's line, with the catalogue's `felt <command> --help` naming the command that ran. */
function failureLine(error: unknown): string {
  const line = oneLine(redactSecrets(describeError(error)));
  return runningCommand ? line.replaceAll('felt <command> --help', `felt ${runningCommand} --help`) : line;
}

export async function main(argv: string[]): Promise<number> {
  // Libraries' own debug logs (OPENAI_LOG=debug, NODE_DEBUG) are masked too (issue 6).
  redactProcessOutput();
  if (!quietOnClosedPipe) {
    quietOnClosedPipe = true;
    // `felt --help | head` closes the pipe early: that is the reader's choice, not a crash.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportFailure(error);
  }
}

function reportFailure(error: unknown): number {
  if (error instanceof CommanderError) {
    // commander has already printed its message (unknown flag, --help, …).
    return error.exitCode;
  }
  if (error instanceof ContentError) {
    for (const problem of error.problems) console.error(terminalSafe(redactSecrets(formatProblem(problem))));
  }
  // A full disk or a refused permission that no stage boundary caught is still the machine's failure, not felt's.
  const expected = error instanceof FeltError ? error : environmentError(error);
  if (expected) {
    console.error(`felt: ${failureLine(expected)}`);
    printCauses(expected);
    return EXIT.failed;
  }
  console.error(`felt: unexpected failure, please report it: ${failureLine(error)}`);
  printCauses(error);
  return EXIT.unexpected;
}

/** FELT_DEBUG=1: the code, the stage and every cause under the one line, secrets masked. */
function printCauses(error: unknown): void {
  if (!process.env.FELT_DEBUG) return;
  for (const line of causeChain(error)) console.error(terminalSafe(redactSecrets(line)));
}
