/**
 * What every server-rendered component may need: the translator, the site
 * settings and the category tree. Provided once per build.
 */
import { createContext, useContext } from 'react';
import type { Translator } from '../i18n/translator.ts';
import type { CategoryNode, SiteSettings } from '../../shared/types.ts';

export interface SiteContextValue {
  t: Translator['t'];
  pick: Translator['pick'];
  formatDate: Translator['formatDate'];
  settings: SiteSettings;
  categories: CategoryNode[];
}

const Context = createContext<SiteContextValue | null>(null);
export const SiteProvider = Context.Provider;

export function useSite(): SiteContextValue {
  const value = useContext(Context);
  if (!value) throw new Error('useSite() outside <SiteProvider>');
  return value;
}
