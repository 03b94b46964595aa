/**
 * Errors that felt expects: bad content, bad flags, unreachable services.
 * Each carries a stable code, a plain message naming the file and field, and
 * a hint saying what to do. The CLI prints them as one line and exits non-zero;
 * anything that is not a FeltError is a bug and keeps its stack trace.
 */
export interface ProblemLocation {
  file?: string;
  line?: number;
  field?: string;
}

export class FeltError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly location: ProblemLocation;

  constructor(code: string, message: string, options: { hint?: string; cause?: unknown } & ProblemLocation = {}) {
    super(message, { cause: options.cause });
    this.name = 'FeltError';
    this.code = code;
    this.hint = options.hint;
    this.location = { file: options.file, line: options.line, field: options.field };
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
    super('CONTENT_INVALID', `${errors.length} problem${errors.length === 1 ? '' : 's'} in content`, {
      hint: 'fix the files listed above and run the command again',
    });
    this.problems = problems;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof FeltError) {
    const where = formatLocation(error.location);
    return `${where ? where + ': ' : ''}${error.message}${error.hint ? `. ${error.hint}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
