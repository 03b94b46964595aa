/**
 * What every content schema is built from: the field types (slug, text,
 * localized text, http URL), and how a zod issue becomes a
 * Problem an operator can act on: the dotted field, a plain message, and
 * the line of that field in its file.
 */
import { z } from 'zod';
import type { Problem } from './errors.ts';
import { LIMIT_HINT, LIMITS, tooLarge } from './limits.ts';
import { SLUG_PATTERN } from './names.ts';
import { meantName } from './spelling.ts';

// abort: a value over its length limit gets that one line, not every other complaint about it as well.
export const slug = z
  .string()
  .max(LIMITS.slugChars, { error: `must be at most ${LIMITS.slugChars} characters, the limit: it names a file or folder`, abort: true })
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
  .max(LIMITS.textChars, { error: `must be at most ${LIMITS.textChars.toLocaleString('en')} characters, the limit`, abort: true })
  .refine((value) => !UNPRINTABLE.test(value), 'must not contain control characters (NUL, CR, …) or broken Unicode');

/**
 * A field shown on one line (an article's title and description): a hand-written one over
 * several lines (a YAML `|` block, a "\n" in quotes) is refused; `felt generate` joins a
 * model's lines itself (cli/generate/answer.ts collapseWhitespace).
 */
// A line feed: a carriage return is a control character, refused above.
export const oneLineText = text.refine(
  (value) => !value.includes('\n'),
  'must be on one line: join its lines into one (a line break in it would show in listings, feeds and search results)',
);

export const localized = z.object({ en: text, tr: text.optional(), ru: text.optional(), ko: text.optional() }).strict();

/** What a URL felt writes into pages may not hold: a URL parser drops spaces and controls around it, but pages get the text as written. */
// eslint-disable-next-line no-control-regex -- control characters are what a URL may not hold
const URL_UNSAFE = /[\s"'<>\u0000-\u001F\u007F]/;

export const httpUrl = z.string().refine((value) => /^https?:\/\/./.test(value) && !URL_UNSAFE.test(value), 'must be an http(s) URL');

/**
 * The address of a site (site.url, localeUrls): what the build turns into
 * canonical URLs, feeds and the other locales' host names, so it must be
 * what a URL parser reads as an https origin: a host, a port if any
 * (1–65535), nothing else. A trailing slash is dropped.
 */
export const siteUrl = z
  .string()
  .transform((value) => value.replace(/\/+$/, ''))
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (
      url.protocol === 'https:' &&
      url.hostname !== '' &&
      url.port !== '0' &&
      !url.username &&
      !url.password &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !URL_UNSAFE.test(value)
    );
  }, 'must be https:// and a host name, with a port if any (1–65535) and no path, like "https://feltmagazine.example"');

/** Third-party ad HTML (ads.json), sanitised when a page is rendered; each piece on its own is small. */
export const adSnippet = z.string().refine((value) => Buffer.byteLength(value) <= LIMITS.adSnippetBytes, {
  error: (issue) => `${tooLarge(Buffer.byteLength(issue.input as string), LIMITS.adSnippetBytes)} for an ad snippet (${LIMIT_HINT})`,
});

/** Parse options for content files: issues carry their input, so a missing field reads "is required". */
export const CONTENT_PARSE = { reportInput: true } as const;

/** Where a field is in a parsed file: keys and array indices, as zod reports them. */
export type FieldPath = readonly PropertyKey[];

/** A value as JSON, cut to a line's worth: a refused value can be a whole file's size. */
function shortJson(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

/** One line per issue: the dotted field path and the message. */
export function formatIssues(error: z.ZodError): { field: string; message: string; path: FieldPath; unknownKey?: string }[] {
  return error.issues.flatMap((issue) =>
    // A strict object's keys it does not know: a line each, at the key's own line (zod gives the object's path).
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => unknownField([...issue.path, key], key)) : [describeIssue(issue)],
  );
}

function unknownField(path: FieldPath, key: string) {
  return { field: path.map(String).join('.'), message: 'is not a field felt knows', path, unknownKey: key };
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string; path: FieldPath } {
  return {
    field: issue.path.map(String).join('.') || '(file)',
    message: isMissing(issue)
      ? 'is required'
      : issue.code === 'invalid_type'
        ? `must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`
        : issue.code === 'invalid_value' && issue.values.length > 1
          ? // zod's own reads `Invalid option: expected one of "en_US"|"ru_RU"|"tr_TR"`
            `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${'input' in issue ? `, not ${shortJson(issue.input)}` : ''}`
          : issue.message,
    path: issue.path,
  };
}

/**
 * Every issue of a file as a Problem at the line of its field: the first
 * LIMITS.problemsPerFile of them, and one more line counting the rest (a file
 * of a million bad keys prints a screenful, and the line of each is looked up
 * only for what is printed).
 */
export function issueProblems(error: z.ZodError, file: string, lineOf: (path: FieldPath) => number | undefined, schema?: z.ZodType): Problem[] {
  const issues = formatIssues(error);
  const shown: Problem[] = issues.slice(0, LIMITS.problemsPerFile).map(({ field, message, path, unknownKey }) => ({
    file,
    field,
    line: lineOf(path),
    severity: 'error',
    message: `${field} ${message}`,
    ...(unknownKey === undefined ? {} : { hint: unknownFieldHint(unknownKey, schema && fieldsAt(schema, path.slice(0, -1))) }),
  }));
  const more = issues.length - shown.length;
  // At the line of the first one left out, so it sorts after those listed.
  if (more > 0)
    shown.push({
      file,
      line: lineOf(issues[shown.length]!.path),
      severity: 'error',
      message: `and ${more.toLocaleString('en')} more problem${more === 1 ? '' : 's'} in this file`,
      hint: `only the first ${LIMITS.problemsPerFile} are listed`,
    });
  return shown;
}

/** What to do about a field felt does not know: the field it misspells, or the fields there are. */
export function unknownFieldHint(key: string, fields: readonly string[] | undefined): string {
  // "$schema" (an editor's) is allowed where it is, but is no field to suggest.
  const known = fields?.filter((name) => !name.startsWith('$'));
  if (!known?.length) return 'remove it';
  const meant = meantName(key, known);
  return meant ? `did you mean "${meant}"?` : `remove it; the fields here are ${known.map((name) => `"${name}"`).join(', ')}`;
}

/**
 * The fields of the object a schema expects at `path` (through optional, default, nullable and lazy wrappers,
 * records and lists), or undefined where it expects no object with named fields. Read from zod's definitions
 * (`_zod.def`, its documented way in), so a settings file's hint names the fields as the schema has them.
 */
function fieldsAt(schema: z.ZodType, path: FieldPath): string[] | undefined {
  let node: z.core.$ZodType | undefined = unwrapped(schema);
  for (const key of path) {
    const next: z.core.$ZodType | undefined = node && childAt(node, String(key));
    node = next && unwrapped(next);
  }
  const def = node?._zod.def as (z.core.$ZodTypeDef & { shape?: Record<string, unknown> }) | undefined;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : undefined;
}

/** What a schema expects under `key`: an object's own field of that name, a record's values, a list's items. */
function childAt(node: z.core.$ZodType, key: string): z.core.$ZodType | undefined {
  const def = node._zod.def as z.core.$ZodTypeDef & { shape?: Record<string, z.core.$ZodType>; valueType?: z.core.$ZodType; element?: z.core.$ZodType };
  switch (def.type) {
    case 'object':
      return def.shape && Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
    case 'record':
      return def.valueType;
    case 'array':
      return def.element;
    default:
      return undefined;
  }
}

function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  let node = schema;
  for (;;) {
    const def = node._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; getter?: () => z.core.$ZodType; in?: z.core.$ZodType };
    const inner = def.type === 'lazy' ? def.getter?.() : def.type === 'pipe' ? def.in : def.innerType;
    if (!inner) return node;
    node = inner;
  }
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
