/**
 * The generation rules of a content locale (SPEC section 5), read from
 * locales/generation/{locale}.json: language name and code, the
 * response-language instruction, extra style rules, the four kinds of source
 * domains, and the limits the checks apply.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FeltError } from '../../shared/errors.ts';
import { LOCALES_DIR } from '../../shared/paths.ts';
import type { ContentLocale } from '../../shared/types.ts';
import { formatIssues } from '../../site/content/schemas.ts';

export const localeRulesSchema = z.object({
  languageName: z.string().min(1),
  /** ISO 639-3 code as the language identifier reports it ("eng", "rus", "tur"). */
  languageCode: z.string().regex(/^[a-z]{3}$/),
  responseLanguage: z.string().min(1),
  styleRules: z.array(z.string().min(1)),
  sourceDomains: z.object({
    onlineEncyclopedia: z.string().min(1),
    generalEncyclopedia: z.string().min(1),
    forum: z.string().min(1),
    socialNetwork: z.string().min(1),
  }),
  forbiddenSuffixes: z.array(z.string().min(1)),
  minWords: z.number().int().min(1),
  maxWords: z.number().int().min(1),
  minSections: z.number().int().min(1),
});

export type LocaleRules = z.infer<typeof localeRulesSchema>;

export async function loadLocaleRules(locale: ContentLocale, dir = path.join(LOCALES_DIR, 'generation')): Promise<LocaleRules> {
  const file = path.join(dir, `${locale}.json`);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new FeltError('RULES_UNREADABLE', `cannot read the generation rules: ${(error as Error).message}`, { file });
  }
  const result = localeRulesSchema.safeParse(data);
  if (!result.success) {
    const first = formatIssues(result.error)[0]!;
    throw new FeltError('RULES_INVALID', `${first.field} ${first.message}`, { file, field: first.field });
  }
  return result.data;
}
