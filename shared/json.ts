/**
 * A JSON file of a project read and validated with its schema (zod): every
 * problem names its file and line. Reading and syntax are jsonSource.ts's.
 */
import type { z } from 'zod';
import type { Problem } from './errors.ts';
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
  const read = await readJsonSource(file, problems, options);
  if (read.kind === 'missing' && options.fallback !== undefined) return schema.parse(options.fallback);
  if (read.kind === 'missing') {
    problems.push({ file: displayPath(file), severity: 'error', message: 'file is missing', hint: options.missingHint });
    return undefined;
  }
  if (read.kind === 'refused') return undefined;
  const result = schema.safeParse(read.json.value, CONTENT_PARSE);
  if (result.success) return result.data;
  problems.push(...issueProblems(result.error, displayPath(file), read.json.lineOf, schema));
  return undefined;
}
