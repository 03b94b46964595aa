/**
 * The generation rules of a content locale (SPEC section 5), read from
 * locales/generation/{locale}.json: language name and code, the
 * response-language instruction, extra style rules, the four kinds of source
 * domains, and the limits the checks apply.
 */
import path from 'node:path';
import { z } from 'zod';
import { readOwnJsonFile } from '../../shared/json.ts';
import { LIMITS } from '../../shared/limits.ts';
import { LOCALES_DIR } from '../../shared/paths.ts';
import type { ContentLocale } from '../../shared/types.ts';

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
  const errors = { missing: 'RULES_UNREADABLE', invalid: 'RULES_INVALID' } as const;
  // A rules file is bounded as a settings file is: far above what one needs.
  return readOwnJsonFile(path.join(dir, `${locale}.json`), localeRulesSchema, errors, { root: dir, maxBytes: LIMITS.settingsBytes });
}
