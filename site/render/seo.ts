/**
 * Structured data and absolute URLs for the head of every page: JSON-LD
 * (schema.org), canonical links and hreflang alternates.
 */
import { contentLangTag } from '../i18n/translator.ts';
import type { ContentLocale, SiteSettings } from '../../shared/types.ts';
import type { Crumb } from '../components/Breadcrumbs.tsx';
import { urls } from '../model/urls.ts';

export function absoluteUrl(settings: SiteSettings, pagePath: string): string {
  return `${settings.url}${pagePath === '/' ? '/' : pagePath}`;
}

/**
 * The site of another content locale: each locale is built as its own site,
 * on its own domain (settings.localeUrls), or by default on a subdomain
 * named after the language ("ru." for ru_RU) of the main site's host.
 */
export function localeSiteUrl(settings: SiteSettings, locale: ContentLocale): string {
  const configured = settings.localeUrls?.[locale];
  if (configured) return configured.replace(/\/+$/, '');
  if (locale === settings.locale) return settings.url;
  const url = new URL(settings.url);
  url.hostname = `${locale.slice(0, 2)}.${url.hostname.replace(/^www\./, '')}`;
  return url.origin;
}

/**
 * Structured data as page specs carry it: what differs from page to page.
 * The schema.org boilerplate around it (publisher, logo, absolute URLs) comes
 * from the site's settings when the head is rendered, so it is not repeated
 * in every spec that a rebuild hashes to find what changed.
 */
export type StructuredData =
  | { type: 'website'; description: string; locale: ContentLocale }
  | { type: 'article'; article: ArticleJsonLdInput }
  | { type: 'breadcrumbs'; trail: Crumb[] }
  | { type: 'person'; person: { name: string; slug: string; description: string } }
  | { type: 'collection'; path: string; name: string; description: string };

export function jsonLdFor(settings: SiteSettings, data: StructuredData): object {
  switch (data.type) {
    case 'website':
      return websiteJsonLd(settings, data.locale, data.description);
    case 'article':
      return articleJsonLd(settings, data.article);
    case 'breadcrumbs':
      return breadcrumbJsonLd(settings, data.trail);
    case 'person':
      return personJsonLd(settings, data.person);
    case 'collection':
      return collectionJsonLd(settings, data.path, data.name, data.description);
  }
}

export function breadcrumbJsonLd(settings: SiteSettings, trail: Crumb[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.name, item: absoluteUrl(settings, crumb.href) })),
  };
}

export function organizationJsonLd(settings: SiteSettings): object {
  return {
    '@type': 'Organization',
    name: settings.title,
    url: settings.url + '/',
    logo: { '@type': 'ImageObject', url: absoluteUrl(settings, urls.logo(settings.brand)), width: 72, height: 72 },
    sameAs: [settings.social.video, settings.social.social, settings.social.photo],
  };
}

export function websiteJsonLd(settings: SiteSettings, locale: ContentLocale, description: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: settings.title,
    url: settings.url + '/',
    description,
    inLanguage: contentLangTag(locale),
    publisher: organizationJsonLd(settings),
  };
}

export interface ArticleJsonLdInput {
  path: string;
  title: string;
  description: string;
  date: string;
  updated?: string;
  author: { name: string; slug: string };
  locale: ContentLocale;
  section?: string;
  keywords: string[];
  words: number;
  /** The article's share card, a path. */
  image?: string;
}

export function articleJsonLd(settings: SiteSettings, input: ArticleJsonLdInput): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: input.title,
    description: input.description,
    datePublished: input.date,
    dateModified: input.updated ?? input.date,
    inLanguage: contentLangTag(input.locale),
    mainEntityOfPage: absoluteUrl(settings, input.path),
    url: absoluteUrl(settings, input.path),
    image: absoluteUrl(settings, input.image ?? urls.logo(settings.brand)),
    articleSection: input.section,
    keywords: input.keywords.length ? input.keywords.join(', ') : undefined,
    wordCount: input.words,
    author: { '@type': 'Person', name: input.author.name, url: absoluteUrl(settings, urls.author(input.author.slug)) },
    publisher: organizationJsonLd(settings),
  };
}

export function personJsonLd(settings: SiteSettings, person: { name: string; slug: string; description: string }): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    mainEntity: {
      '@type': 'Person',
      name: person.name,
      description: person.description,
      url: absoluteUrl(settings, urls.author(person.slug)),
      worksFor: organizationJsonLd(settings),
    },
  };
}

export function collectionJsonLd(settings: SiteSettings, path: string, name: string, description: string): object {
  return { '@context': 'https://schema.org', '@type': 'CollectionPage', name, description, url: absoluteUrl(settings, path) };
}

/**
 * JSON for a <script> element: "<", ">", "&" and the JavaScript line
 * separators are escaped so no string inside can close the element.
 */
export function safeJsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
