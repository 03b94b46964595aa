/**
 * Schemas of every content file. Validation reports every issue at once, each
 * with the path of the field it concerns (see formatIssues).
 */
import { z } from 'zod';
import { CONTENT_LOCALES, UI_LOCALES } from '../../shared/types.ts';
import { SLUG_PATTERN } from '../../shared/names.ts';

const slug = z
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

const text = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine((value) => !UNPRINTABLE.test(value), 'must not contain control characters (NUL, CR, …) or broken Unicode');

const localized = z
  .object({ en: text, tr: text.optional(), ru: text.optional(), ko: text.optional() })
  .strict();

const httpUrl = z.string().regex(/^https?:\/\/[^\s"'<>]+$/, 'must be an http(s) URL');

/** YAML turns 2026-03-14 into a Date; accept both and keep the ISO date. */
export const isoDate = z
  .union([z.string(), z.date()])
  .transform((value, ctx) => {
    const iso = value instanceof Date ? (Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)) : value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number.isNaN(Date.parse(iso))) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO date like 2026-03-14' });
      return z.NEVER;
    }
    return iso;
  })
  // Date.parse and YAML both roll 2026-02-30 over to March 2: the date must be one the calendar has.
  .refine((iso) => new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso), 'must be a real calendar date (no February 30, no April 31)');

export const siteSettingsSchema = z.object({
  title: text,
  tagline: localized,
  brand: slug,
  url: httpUrl.transform((u) => u.replace(/\/+$/, '')),
  email: z.string().regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'must be an e-mail address'),
  social: z.object({ video: httpUrl, social: httpUrl, photo: httpUrl }),
  locale: z.enum(CONTENT_LOCALES),
  localeUrls: z.partialRecord(z.enum(CONTENT_LOCALES), httpUrl).optional(),
  home: z.object({
    moreAwesomeStuff: z.number().int().min(1).max(50),
    ourBestStories: z.number().int().min(1).max(100),
    updatedArticles: z.number().int().min(1).max(50),
    pageSize: z.number().int().min(1).max(200),
    perCategory: z.number().int().min(1).max(20),
  }),
  sponsored: z.object({ style: z.enum(['inline', 'list', 'block']), limit: z.number().int().min(1).optional() }),
  storage: z.object({ prefix: slug, backend: z.enum(['local', 'gcs']), localRoot: text }),
  proxy: z.object({ allow: z.array(z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name')) }),
  generation: z.object({
    model: text,
    prices: z.record(z.string(), z.object({ input: z.number().min(0), output: z.number().min(0) })),
  }),
});

interface RawCategory {
  slug: string;
  title: z.infer<typeof localized>;
  description: z.infer<typeof localized>;
  children: Record<string, RawCategory> | null;
}

const categoryNode: z.ZodType<RawCategory> = z.lazy(() =>
  z.object({
    slug,
    title: localized,
    description: localized,
    children: z.record(z.string().regex(/^[a-z][A-Za-z0-9]*$/, 'keys must be camelCase'), categoryNode).nullable(),
  }),
);

export const categoriesSchema = z.record(z.string().regex(/^[a-z][A-Za-z0-9]*$/, 'keys must be camelCase'), categoryNode);

export const authorSchema = z.object({
  name: text,
  slug,
  description: text,
  meta_title: text,
  meta_description: text,
});
export const authorsSchema = z.array(authorSchema).min(1, 'must list at least one author');

export const infoPageFrontmatterSchema = z.object({ title: text, description: text });

export const adsSchema = z.object({
  sapeNewUrl: z.string().default(''),
  sapeLinks: z.record(z.string().regex(/^\//, 'keys must be page paths starting with /'), z.array(z.string())).default({}),
});

const entitySchema = z.object({
  category: text,
  subcategories: z
    .array(
      z.object({
        subcategory: text,
        subsubcategories: z.array(text).default([]),
      }),
    )
    .optional(),
});

export const articleFrontmatterSchema = z.object({
  title: text.max(200, 'must be at most 200 characters'),
  slug,
  description: text.max(400, 'must be at most 400 characters'),
  author: text,
  date: isoDate,
  updated: isoDate.optional(),
  locale: z.enum(CONTENT_LOCALES),
  translationKey: slug.optional(),
  entities: z.array(entitySchema).min(1, 'must list at least one entity with a category'),
});

export const uiLocaleSchema = z.enum(UI_LOCALES);

/** Parse options for content files: issues carry their input, so a missing field reads "is required". */
export const CONTENT_PARSE = { reportInput: true } as const;

/** One line per issue: the dotted field path and the message. */
export function formatIssues(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || '(file)',
    message: isMissing(issue) ? 'is required' : issue.code === 'invalid_type' ? `must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}` : issue.message,
  }));
}

/** With CONTENT_PARSE the issue holds its input (YAML's empty `title:` is null); without it, zod's message says "received undefined". */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if ('input' in issue) return issue.input === undefined || issue.input === null;
  if (issue.code === 'invalid_union') return issue.errors.length > 0 && issue.errors.every((branch) => branch.some(isMissing));
  return issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
}
