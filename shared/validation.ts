/**
 * What every content schema is built from: the field types (slug, text,
 * localized text, http URL), and how a zod issue becomes a
 * Problem an operator can act on: the dotted field, a plain message, and
 * the line of that field in its file.
 */
import { z } from 'zod';
import type { Problem } from './errors.ts';
import { SLUG_PATTERN } from './names.ts';

export const slug = z
  .string()
  .regex(SLUG_PATTERN, 'must be lowercase ASCII kebab-case (a-z, 0-9 and single hyphens), like "bankroll-basics"');

/**
 * Characters a page cannot carry as they are: C0 controls other than tab and
 * line feed (an HTML parser drops NUL and turns CR into LF), DEL, and lone
 * surrogates (written as U+FFFD). The server-rendered text would then differ
 * from the page data and break hydration (issue 6).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const UNPRINTABLE = /[\u0000-\u0008\u000B-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const text = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((value) => !UNPRINTABLE.test(value), 'must not contain control characters (NUL, CR, …) or broken Unicode');

export const localized = z
  .object({ en: text, tr: text.optional(), ru: text.optional(), ko: text.optional() })
  .strict();

export const httpUrl = z.string().regex(/^https?:\/\/[^\s"'<>]+$/, 'must be an http(s) URL');

/** Parse options for content files: issues carry their input, so a missing field reads "is required". */
export const CONTENT_PARSE = { reportInput: true } as const;

/** Where a field is in a parsed file: keys and array indices, as zod reports them. */
export type FieldPath = readonly PropertyKey[];

/** One line per issue: the dotted field path and the message. */
export function formatIssues(error: z.ZodError): { field: string; message: string; path: FieldPath }[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || '(file)',
    message: isMissing(issue) ? 'is required' : issue.code === 'invalid_type' ? `must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}` : issue.message,
    path: issue.path,
  }));
}

/** Every issue of a file as a Problem at the line of its field. */
export function issueProblems(error: z.ZodError, file: string, lineOf: (path: FieldPath) => number | undefined): Problem[] {
  return formatIssues(error).map(({ field, message, path }) => ({ file, field, line: lineOf(path), severity: 'error', message: `${field} ${message}` }));
}

/** A dotted field name ("home.pageSize", "entities.0") as a path, for problems made without one. */
export function fieldPath(field: string): FieldPath {
  return field.split('.');
}

/** With CONTENT_PARSE the issue holds its input (YAML's empty `title:` is null); without it, zod's message says "received undefined". */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if ('input' in issue) return issue.input === undefined || issue.input === null;
  if (issue.code === 'invalid_union') return issue.errors.length > 0 && issue.errors.every((branch) => branch.some(isMissing));
  return issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
}
