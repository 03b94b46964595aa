/**
 * Schemas of the content files beside the settings: articles' and info
 * pages' frontmatter, and ads.json. The settings files' schemas are in
 * shared/settings.ts, the field types and issue formatting in
 * shared/validation.ts. Validation reports every issue at once, each with the
 * path of the field it concerns.
 */
import { z } from 'zod';
import { isCalendarDay } from '../../shared/calendar.ts';
import { CONTENT_LOCALES, UI_LOCALES } from '../../shared/types.ts';
import { adSnippet, oneLineText, slug, text } from '../../shared/validation.ts';

// The pipeline's checks of generated articles format their issues through this module.
export { formatIssues } from '../../shared/validation.ts';

/** YAML turns 2026-03-14 into a Date; accept both and keep the ISO date. */
export const isoDate = z
  // A number (`date: 1700000000`) or a list is neither: said as the date it should be, not as zod's "Invalid input".
  .union([z.string(), z.date()], { error: 'must be an ISO date like 2026-03-14' })
  .transform((value, ctx) => {
    const iso = value instanceof Date ? (Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)) : value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number.isNaN(Date.parse(iso))) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO date like 2026-03-14' });
      return z.NEVER;
    }
    return iso;
  })
  // Date.parse and YAML both roll 2026-02-30 over to March 2: the date must be one the calendar has.
  .refine(isCalendarDay, 'must be a real calendar date (no February 30, no April 31)');

export const infoPageFrontmatterSchema = z.object({ title: text, description: text });

const adData = z.object({
  sapeNewUrl: adSnippet.default(''),
  sapeLinks: z.record(z.string().regex(/^\//, 'keys must be page paths starting with /'), z.array(adSnippet)).default({}),
});

/** The English copy at the top level, and each UI locale's own copy under its code (shared/types.ts AdFile). */
export const adsSchema = adData.extend(Object.fromEntries(UI_LOCALES.map((ui) => [ui, adData.optional()])) as Record<(typeof UI_LOCALES)[number], z.ZodOptional<typeof adData>>);

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
  title: oneLineText.max(200, 'must be at most 200 characters'),
  slug,
  description: oneLineText.max(400, 'must be at most 400 characters'),
  author: text,
  date: isoDate,
  updated: isoDate.optional(),
  locale: z.enum(CONTENT_LOCALES),
  translationKey: slug.optional(),
  entities: z.array(entitySchema).min(1, 'must list at least one entity with a category'),
});
