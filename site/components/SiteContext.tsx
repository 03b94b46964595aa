/**
 * What every server-rendered component may need: the translator, the site
 * settings and the category tree. Provided once per build.
 */
import { createContext, useContext } from 'react';
import { contentLangTag, type Translator } from '../i18n/translator.ts';
import type { CategoryNode, ContentLocale, SiteSettings } from '../../shared/types.ts';

export interface SiteContextValue {
  t: Translator['t'];
  pick: Translator['pick'];
  formatDate: Translator['formatDate'];
  settings: SiteSettings;
  categories: CategoryNode[];
  /**
   * The articles' language where the interface speaks another (`felt build --ui ko` of English articles): the lang
   * of what the articles wrote (titles, descriptions, bodies), so a screen reader does not read English as Korean.
   * Undefined where the two are one, as in every build without --ui.
   */
  contentLang?: string;
}

/** The context of a site whose interface is the translator's and whose articles are in `contentLocale`. */
export function siteContextOf(translator: Translator, settings: SiteSettings, categories: CategoryNode[], contentLocale: ContentLocale): SiteContextValue {
  const contentLang = contentLangTag(contentLocale);
  return {
    t: translator.t,
    pick: translator.pick,
    formatDate: translator.formatDate,
    settings,
    categories,
    ...(contentLang === translator.lang ? {} : { contentLang }),
  };
}

const Context = createContext<SiteContextValue | null>(null);
export const SiteProvider = Context.Provider;

export function useSite(): SiteContextValue {
  const value = useContext(Context);
  if (!value) throw new Error('useSite() outside <SiteProvider>');
  return value;
}
