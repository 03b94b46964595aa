/**
 * A page of the site as data: its path, kind, head and the props of its
 * component. Specs are plain JSON, so they can be handed to worker threads
 * and checked for serialisability before anything is written.
 */
import type { Crumb } from '../components/Breadcrumbs.tsx';
import type { StructuredData } from '../render/seo.ts';
import type { PageInfo } from '../model/pagination.ts';
import type { ArticleSummary } from '../model/summaries.ts';
import type { Translation } from '../model/siteModel.ts';
import type { SearchPageStrings } from '../islands/search/types.ts';
import { ERROR_PAGES } from '../../shared/errorPages.ts';

export type PageKind = 'home' | 'category' | 'subcategory' | 'article' | 'authors' | 'author' | 'info' | 'sitemap' | 'notFound' | 'serverError' | 'search';

export interface Alternate {
  hreflang: string;
  href: string;
}

export interface Head {
  title: string;
  description: string;
  /** Canonical path; absent for the 404 and 500 pages. */
  canonical?: string;
  ogType: 'website' | 'article' | 'profile';
  /** JSON-LD, as the data that varies; rendered with the site's settings (render/seo.ts). */
  structuredData: StructuredData[];
  alternates: Alternate[];
  noindex?: boolean;
  feed?: { title: string; href: string };
  published?: string;
  modified?: string;
  author?: string;
  /** The page's share card (og:image, 1200 × 630); the site's card when absent. */
  image?: { path: string; alt: string };
}

export interface LinkItem {
  title: string;
  href: string;
  description?: string;
  count?: number;
}

export interface HomeProps {
  lead: ArticleSummary[];
  best: ArticleSummary[];
  updated: ArticleSummary[];
  categories: (LinkItem & { articles: ArticleSummary[] })[];
}

export interface ListingProps {
  heading: string;
  description?: string;
  trail: Crumb[];
  topics: LinkItem[];
  articles: ArticleSummary[];
  pagination: PageInfo;
  /** On the front page only: archive pages stay the same as the listing grows. */
  total?: number;
}

export interface ArticleProps {
  slug: string;
  title: string;
  description: string;
  /** The markdown file; its body is read when the page is rendered, wherever that runs. */
  source: string;
  /** Digest of the source: with the other props, the page's cache key. */
  digest: string;
  /** The cover's alt text: the provider's picture shows the article's subject; the generated one is decorative (""). */
  coverAlt: string;
  /** The generated cover's address (site/pictures/drawnCovers.ts); none when the cover is the provider's picture. */
  cover?: string;
  date: string;
  updated?: string;
  /** Words in the body, counted when the article was loaded (for the reading time). */
  words: number;
  author: { name: string; slug: string; bio: string };
  trail: Crumb[];
  tags: string[];
  related: ArticleSummary[];
  translations: (Translation & { href: string; label: string })[];
  pageUrl: string;
  /** Only in `felt preview` (see ArticleSummary.draft). */
  draft?: 'new' | 'changed';
}

export interface AuthorsProps {
  authors: (LinkItem & { name: string })[];
}

export interface AuthorProps {
  name: string;
  bio: string;
  trail: Crumb[];
  articles: ArticleSummary[];
  pagination: PageInfo;
  /** On the front page only: archive pages stay the same as the listing grows. */
  total?: number;
}

export interface InfoProps {
  title: string;
  body: string;
  trail: Crumb[];
}

export interface SitemapProps {
  sections: (LinkItem & { children: LinkItem[] })[];
  info: LinkItem[];
  recent: LinkItem[];
}

/** The search results page (issue 18): the server renders its frame, the browser the results for ?q=. */
export interface SearchPageProps {
  heading: string;
  /** Shown without JavaScript: the page cannot search, the sitemap lists everything. */
  noScript: string;
  sitemap: { title: string; href: string };
  /** What the browser shows, filled in by site/client/pages/search.tsx. */
  client: SearchPageStrings;
}

export type PageProps =
  | { kind: 'home'; props: HomeProps }
  | { kind: 'category' | 'subcategory'; props: ListingProps }
  | { kind: 'article'; props: ArticleProps }
  | { kind: 'authors'; props: AuthorsProps }
  | { kind: 'author'; props: AuthorProps }
  | { kind: 'info'; props: InfoProps }
  | { kind: 'sitemap'; props: SitemapProps }
  | { kind: 'notFound' | 'serverError'; props: Record<string, never> }
  | { kind: 'search'; props: SearchPageProps };

export type PageSpec = PageProps & {
  path: string;
  head: Head;
  sponsored: { heading: string; links: string[] };
};

/** The files the error pages are written to in place of one made from their path (404.html, 500.html). */
export const SPECIAL_FILES: Partial<Record<PageKind, string>> = { notFound: ERROR_PAGES.notFound.file, serverError: ERROR_PAGES.serverError.file };
