/**
 * A JSON file (a project's, or one of felt's own in locales/) read and
 * validated with its schema (zod): every problem names its file and line.
 * Reading and syntax are jsonSource.ts's.
 */
import type { z } from 'zod';
import { FeltError, formatProblem, type ErrorCode, type Problem } from './errors.ts';
import type { InputLimits } from './inputFile.ts';
import { readJsonSource } from './jsonSource.ts';
import { displayPath } from './paths.ts';
import { CONTENT_PARSE, issueProblems } from './validation.ts';

export interface ReadJsonOptions<S extends z.ZodType> extends InputLimits {
  /** Used when the file does not exist; without it a missing file is a problem. */
  fallback?: z.input<S>;
  /** What to do about a missing file. */
  missingHint?: string;
}

/**
 * Reads a JSON file and validates it with `schema`. Every problem (missing
 * file, a file over its limit or not a file at all, syntax, nesting, each
 * schema issue) is added to `problems` with its file and line; the value is
 * returned only when there is none.
 */
export async function readJsonFile<S extends z.ZodType>(
  file: string,
  schema: S,
  problems: Problem[],
  options: ReadJsonOptions<S>,
): Promise<z.output<S> | undefined> {
  const read = await readValidated(file, schema, problems, options);
  if (read.kind === 'missing') {
    problems.push({ file: displayPath(file), severity: 'error', message: 'file is missing', hint: options.missingHint });
    return undefined;
  }
  return read.kind === 'value' ? read.value : undefined;
}

/** What a failure to read one of felt's own files is: a missing file, and one that is there but wrong. */
export interface OwnFileErrors {
  missing: ErrorCode;
  invalid: ErrorCode;
}

/**
 * readJsonFile for one of felt's own files (locales/: the UI strings, the
 * generation rules), read where no list of problems is collected and shown:
 * the value, or one FeltError naming every problem with its line.
 */
export async function readOwnJsonFile<S extends z.ZodType>(
  file: string,
  schema: S,
  errors: OwnFileErrors,
  options: Omit<ReadJsonOptions<S>, 'missingHint'>,
): Promise<z.output<S>> {
  const problems: Problem[] = [];
  const read = await readValidated(file, schema, problems, options);
  if (read.kind === 'value') return read.value;
  if (read.kind === 'missing') throw new FeltError(errors.missing, 'is missing', { file: displayPath(file) });
  throw new FeltError(errors.invalid, problems.map(formatProblem).join('; '));
}

type Validated<T> = { kind: 'value'; value: T } | { kind: 'missing' } | { kind: 'refused' };

/** The file's value, or why there is none: missing (without a fallback), or refused with its problems added. */
async function readValidated<S extends z.ZodType>(file: string, schema: S, problems: Problem[], options: ReadJsonOptions<S>): Promise<Validated<z.output<S>>> {
  const read = await readJsonSource(file, problems, options);
  if (read.kind === 'missing') return options.fallback === undefined ? read : { kind: 'value', value: schema.parse(options.fallback) };
  if (read.kind === 'refused') return read;
  const result = schema.safeParse(read.json.value, CONTENT_PARSE);
  if (result.success) return { kind: 'value', value: result.data };
  problems.push(...issueProblems(result.error, displayPath(file), read.json.lineOf, schema));
  return { kind: 'refused' };
}
