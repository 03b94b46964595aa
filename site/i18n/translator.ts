/**
 * UI strings of the display locales (locales/{ui}.json). Components never
 * hold visible text: they call t(key). A key missing in a locale falls back
 * to English; `felt check` reports such gaps.
 */
import type { ContentLocale, Localized, UiLocale } from '../../shared/types.ts';
import { applyDisplayFixes } from '../../shared/names.ts';

export type Messages = Record<string, string>;

export interface Translator {
  ui: UiLocale;
  /** The strings it was made from (sent to render workers to make the same translator). */
  messages: Messages;
  fallbackMessages: Messages;
  /** BCP 47 tag for html lang and Intl: "en-US", "tr-TR", … */
  lang: string;
  t(key: string, params?: Record<string, string | number>): string;
  /** A Localized content value in this display locale, with SPEC section 5's fixed spellings ("DeFi", "NFT"). */
  pick(value: Localized): string;
  formatDate(iso: string): string;
}

export const DEFAULT_UI: Record<ContentLocale, UiLocale> = { en_US: 'en', ru_RU: 'ru', tr_TR: 'tr' };
const LANG_TAG: Record<UiLocale, string> = { en: 'en-US', tr: 'tr-TR', ru: 'ru-RU', ko: 'ko-KR' };

export function langTag(ui: UiLocale): string {
  return LANG_TAG[ui];
}

/** hreflang / og:locale form of a content locale: en_US → en-US. */
export function contentLangTag(locale: ContentLocale): string {
  return locale.replace('_', '-');
}

export function createTranslator(ui: UiLocale, messages: Messages, fallback: Messages): Translator {
  const dates = new Intl.DateTimeFormat(LANG_TAG[ui], { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const plurals = new Intl.PluralRules(LANG_TAG[ui]);
  const formatted = new Map<string, string>();
  // A count picks "key.one", "key.few", … when the locale has that form; the plain key is the default.
  const lookup = (key: string, count: unknown) => {
    if (typeof count === 'number') {
      const form = messages[`${key}.${plurals.select(count)}`];
      if (form !== undefined) return form;
    }
    return messages[key] ?? fallback[key];
  };
  return {
    ui,
    messages,
    fallbackMessages: fallback,
    lang: LANG_TAG[ui],
    t(key, params) {
      const template = lookup(key, params?.count);
      if (template === undefined) throw new Error(`UI string "${key}" is missing from locales/en.json`);
      return params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : template;
    },
    pick(value) {
      return applyDisplayFixes(value[ui] ?? value.en);
    },
    formatDate(iso) {
      // Thousands of cards share a few hundred dates; Intl formatting is the slow part.
      let text = formatted.get(iso);
      if (text === undefined) {
        text = dates.format(new Date(`${iso}T00:00:00Z`));
        formatted.set(iso, text);
      }
      return text;
    },
  };
}
