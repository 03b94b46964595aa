/**
 * The typed data that flows between the build's stages:
 * files → SiteContent (parsed, validated) → CategoryIndex → pages → HTML files.
 */
import type { Retraction } from './retraction.ts';

export const UI_LOCALES = ['en', 'tr', 'ru', 'ko'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];

export const CONTENT_LOCALES = ['en_US', 'ru_RU', 'tr_TR'] as const;
export type ContentLocale = (typeof CONTENT_LOCALES)[number];

/** A string given per display locale; `en` is the fallback for the others. */
export type Localized = { en: string } & Partial<Record<UiLocale, string>>;

export interface HomeCounts {
  moreAwesomeStuff: number;
  ourBestStories: number;
  updatedArticles: number;
  pageSize: number;
  perCategory: number;
}

export type SponsoredStyle = 'inline' | 'list' | 'block';

export interface SiteSettings {
  title: string;
  tagline: Localized;
  brand: string;
  url: string;
  email: string;
  social: { video: string; social: string; photo: string };
  locale: ContentLocale;
  /** Where the sites of the other content locales live, for hreflang links. */
  localeUrls?: Partial<Record<ContentLocale, string>>;
  home: HomeCounts;
  sponsored: { style: SponsoredStyle; limit?: number };
  /** projectId and apiEndpoint are read for GCS only. */
  storage: { prefix: string; backend: 'local' | 'gcs'; localRoot: string; projectId?: string; apiEndpoint?: string };
  proxy: { allow: string[] };
  generation: {
    model: string;
    prices: Record<string, { input: number; output: number }>;
    /** USD a `felt generate` run may spend (--max-cost wins). */
    budget?: number;
    /** A new body at least this similar to an existing article's is refused (default 0.4). */
    duplicateThreshold?: number;
    /** Consecutive provider failures that stop a run (default 5; --breaker wins). */
    breaker?: number;
    /** Optional: a cover picture per article from the provider's images API (cli/generate/images.ts). */
    images?: ImageSettings;
  };
}

/** `generation.images`: ask the provider's images API for each new article's cover picture. */
export interface ImageSettings {
  model: string;
  /** As the images API takes it: "1536x1024", "auto" (the model's default when absent). */
  size?: string;
  quality?: 'low' | 'medium' | 'high' | 'auto' | 'standard' | 'hd';
}

export interface CategoryNode {
  key: string;
  slug: string;
  title: Localized;
  description: Localized;
  children: CategoryNode[];
}

export interface Author {
  name: string;
  slug: string;
  description: string;
  meta_title: string;
  meta_description: string;
}

export interface InfoPage {
  id: 'about-us' | 'privacy-policy' | 'terms';
  ui: UiLocale;
  title: string;
  description: string;
  body: string;
  file: string;
}

export interface AdData {
  sapeNewUrl: string;
  sapeLinks: Record<string, string[]>;
}

/**
 * ads.json: its top-level fields are the English copy (the file's first
 * form); a UI locale's own entry ("ru": {…}) is that interface's copy. An
 * interface with neither shows no sponsored copy rather than English.
 */
export type AdFile = AdData & Partial<Record<UiLocale, AdData>>;

export interface ArticleEntity {
  category: string;
  subcategories?: { subcategory: string; subsubcategories: string[] }[];
}

export interface Article {
  /** Unique within one content locale: the slug. */
  id: string;
  file: string;
  slug: string;
  title: string;
  description: string;
  author: string;
  date: string;
  updated?: string;
  locale: ContentLocale;
  translationKey?: string;
  entities: ArticleEntity[];
  /** Absolute path of the source file: the body is read from it when the page is rendered. */
  source: string;
  /** Words in the body, for reading time and structured data. */
  words: number;
  /** Digest of the whole source file: the cache key of per-article work. */
  digest: string;
  /** Only in `felt preview`: an article of the dev bucket that production lacks ("new") or has otherwise ("changed"). */
  draft?: 'new' | 'changed';
}

export interface SiteContent {
  root: string;
  settings: SiteSettings;
  categories: CategoryNode[];
  authors: Author[];
  pages: InfoPage[];
  ads: AdFile;
  /** Articles of every content locale, keyed by locale. */
  articles: Record<ContentLocale, Article[]>;
  /** Articles taken back with `felt retract` (content/retracted/{locale}/): answered with a gone page or a redirect. */
  retracted?: Partial<Record<ContentLocale, Retraction[]>>;
}
