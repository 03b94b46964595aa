/**
 * Errors that felt expects: bad content, bad flags, unreachable services, a
 * full disk. Each carries a code from the catalogue (shared/errorCatalogue.ts),
 * a plain message naming the file and field, a hint saying what to do (the
 * catalogue's unless the call site has a better one), and what caused it. The
 * CLI prints them as one line and exits non-zero; anything that is not a
 * FeltError is a bug and keeps its stack trace.
 */
import { errorCatalogue, type ErrorCode } from './errorCatalogue.ts';

export { errorCatalogue, isErrorCode, type ErrorCode } from './errorCatalogue.ts';

export interface ProblemLocation {
  file?: string;
  line?: number;
  field?: string;
}

export interface FeltErrorOptions extends ProblemLocation {
  /** Overrides the catalogue's hint for this code. */
  hint?: string;
  /** What felt was doing when a library or the OS failed (see shared/stageErrors.ts). */
  stage?: string;
  cause?: unknown;
}

export class FeltError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly stage: string | undefined;
  readonly location: ProblemLocation;

  constructor(code: ErrorCode, message: string, options: FeltErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'FeltError';
    this.code = code;
    this.hint = options.hint ?? errorCatalogue[code].hint;
    this.stage = options.stage;
    this.location = { file: options.file, line: options.line, field: options.field };
  }

  /** What this kind of failure is, in general ("The disk is full"). */
  get title(): string {
    return errorCatalogue[this.code].title;
  }
}

/** One problem found in content: collected, never thrown one at a time. */
export interface Problem extends ProblemLocation {
  file: string;
  message: string;
  hint?: string;
  severity: 'error' | 'warning';
}

export function formatLocation(p: ProblemLocation): string {
  const where = [p.file, p.line].filter((x) => x !== undefined).join(':');
  return [where, p.field ? `field "${p.field}"` : ''].filter(Boolean).join(' ');
}

export function formatProblem(p: Problem): string {
  const where = formatLocation(p);
  return `${where ? where + ': ' : ''}${p.message}${p.hint ? ` (${p.hint})` : ''}`;
}

/** Raised when content has errors; carries every problem found in the run. */
export class ContentError extends FeltError {
  readonly problems: Problem[];

  constructor(problems: Problem[]) {
    const errors = problems.filter((p) => p.severity === 'error');
    super('CONTENT_INVALID', `${errors.length} problem${errors.length === 1 ? '' : 's'} in content`);
    this.problems = problems;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof FeltError) {
    const where = formatLocation(error.location);
    return `${where ? where + ': ' : ''}${error.message}. ${error.hint}`;
  }
  return error instanceof Error ? error.message : String(error);
}
