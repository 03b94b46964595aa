/**
 * Flags shared by the pipeline commands (generate, publish, pull, deploy)
 * and the one way they end: print the JSON result for scripts, then fail
 * with one line when anything did not succeed.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { isCalendarDay } from '../../shared/calendar.ts';
import { FeltError } from '../../shared/errors.ts';
import { EXIT } from '../../shared/exitCodes.ts';
import { createReporter, type Reporter } from '../report.ts';
import type { StorageChoice } from '../storage/index.ts';

export interface CommonFlags {
  content: string;
  storage?: string;
  storageEndpoint?: string;
  json?: boolean;
}

export function addCommonFlags(command: Command): Command {
  return command
    .option('--content <dir>', 'the content folder', 'content')
    .option('--storage <kind>', 'storage backend: local or gcs (default: content/site.json storage.backend)')
    .option('--storage-endpoint <url>', 'GCS API endpoint (STORAGE_EMULATOR_HOST is honoured too)')
    .option('--json', 'print one JSON result for scripts');
}

export function storageChoice(flags: CommonFlags): StorageChoice {
  return { storage: flags.storage, apiEndpoint: flags.storageEndpoint };
}

export function reporterFor(flags: CommonFlags): Reporter {
  return createReporter({ json: flags.json });
}

export function collect(value: string, previous: string[] = []): string[] {
  return previous.concat(
    value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  );
}

/** A count flag: decimal digits only, so `1e3`, `0x10` and ` 5` are refused rather than read as 1,000, 16 and 5. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
      throw new FeltError('BAD_OPTION', `${name} must be a whole number of at least 1, not "${value}"`);
    return n;
  };
}

/**
 * An article date flag (--date): YYYY-MM-DD and a day the calendar has. Checked when the
 * flags are read, so a mistyped date stops the run before any model is asked (each answer
 * would otherwise be paid for and then refused by the article check).
 */
export function isoDateOption(name: string) {
  return (value: string): string => {
    if (!isCalendarDay(value)) throw new FeltError('BAD_OPTION', `${name} must be a calendar date like 2026-03-14, not "${value}"`);
    return value;
  };
}

/** A yes/no question on a terminal; undefined when stdin is not one (CI). */
export function terminalConfirm(): ((question: string) => Promise<boolean>) | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await rl.question(question)).trim());
    } finally {
      rl.close();
    }
  };
}

/** Prints the JSON result, then turns failures into the command's one error line. */
export function finish(reporter: Reporter, result: unknown, failures: { name: string; reason: string }[], what: string): void {
  reporter.json(result);
  for (const failure of failures) reporter.note(`failed: ${failure.name}: ${failure.reason}`);
  if (failures.length) throw new FeltError('INCOMPLETE', `${what}: ${failures.length} failed (listed above)`);
}

/**
 * finish() for work that skips bad items instead of stopping at them (issue 17):
 * one line per skipped item, naming it and its problem; a failure still ends
 * in exit 1, and a run whose only trouble is skipped items exits
 * EXIT.doneWithSkips, which a nightly workflow treats as a warning.
 */
export function finishWithSkips(
  reporter: Reporter,
  result: unknown,
  failures: { name: string; reason: string }[],
  skipped: { name: string; reason: string }[],
  what: string,
): void {
  for (const item of skipped) reporter.note(`skipped: ${item.name}: ${item.reason}`);
  finish(reporter, result, failures, what);
  if (!skipped.length) return;
  reporter.note(`${what}: done, ${skipped.length} skipped (listed above)`);
  process.exitCode = EXIT.doneWithSkips;
}
