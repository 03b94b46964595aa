/**
 * A retraction (issue 12, item 5): the record `felt retract` writes to the
 * production bucket at `retracted/{locale}/{slug}.json`, `felt pull` copies to
 * `content/retracted/{locale}/{slug}.json`, and the build turns into a "gone"
 * page (HTTP 410) or a redirect at the article's old address. One schema for
 * all three, so what the CLI writes is what the site reads.
 */
import { z } from 'zod';
import { CONTENT_LOCALES } from './types.ts';
import { SLUG_PATTERN } from './names.ts';

/** The longest `by` and `reason` a record keeps: `felt retract` refuses longer flags by these before anything is written. */
export const RETRACTION_LIMITS = { by: 200, reason: 10_000 } as const;

export const retractionSchema = z
  .object({
    slug: z.string().regex(SLUG_PATTERN, 'must be a lowercase kebab-case slug'),
    locale: z.enum(CONTENT_LOCALES),
    title: z.string().max(10_000),
    retractedAt: z.string().datetime({ offset: true }),
    by: z.string().min(1).max(RETRACTION_LIMITS.by),
    reason: z.string().max(RETRACTION_LIMITS.reason).optional(),
    /** A site path ("/articles/other") or, when the operator allowed it, an absolute http(s) URL. */
    redirect: z
      .string()
      .min(1)
      .max(2_000)
      // A record comes from a bucket others can write: nothing but a site path or an http(s) address reaches a page or _redirects.
      .refine((target) => isSitePath(target) || isAbsoluteHttpUrl(target), 'must be a path of the site or an http(s) address')
      .optional(),
  })
  .strict();

export type Retraction = z.infer<typeof retractionSchema>;

export const RETRACTED_PREFIX = 'retracted';

export function retractionObjectName(locale: string, slug: string): string {
  return `${RETRACTED_PREFIX}/${locale}/${slug}.json`;
}

/** Is `target` a path of this site (not `//host`, no backslash, no scheme, no control characters or spaces)? */
export function isSitePath(target: string): boolean {
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\') || hasControlOrSpace(target)) return false;
  try {
    return new URL(target, 'https://site.invalid').host === 'site.invalid';
  } catch {
    return false;
  }
}

/** Is `target` an absolute http(s) URL? */
export function isAbsoluteHttpUrl(target: string): boolean {
  if (hasControlOrSpace(target)) return false;
  try {
    const url = new URL(target);
    return (url.protocol === 'https:' || url.protocol === 'http:') && Boolean(url.hostname) && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** A space, a tab or another control character: never part of an address felt writes into a page or _redirects. */
function hasControlOrSpace(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code <= 0x20 || code === 0x7f || /\s/u.test(char)) return true;
  }
  return false;
}
