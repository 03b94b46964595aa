/**
 * The HTML document around a page: head tags from the page's Head, the
 * shared shell, and the asset links. Assembled as a string: it is the same
 * frame for every page and needs no React.
 */
import type { SiteSettings } from '../../shared/types.ts';
import type { Head } from '../pages/types.ts';
import type { Shell } from './renderPage.tsx';
import { absoluteUrl, jsonLdFor, safeJsonForScript } from './seo.ts';
import { urls } from '../model/urls.ts';
import { COVER_HEIGHT, COVER_WIDTH } from '../pictures/coverSizes.ts';
import { CONTENT_SECURITY_POLICY_META } from './securityPolicy.ts';

export interface DocumentAssets {
  css: string;
  js: string;
  /** Chunks the entry imports statically. */
  preload?: string[];
  /** The islands' chunks, for the runtime to prefetch once the page has loaded. */
  islands?: string[];
  staticQuery: string;
  /** The build's hash; the client runtime compares it with /page-data/app-data.json. */
  build?: string;
}

export interface DocumentInput {
  lang: string;
  ogLocale: string;
  kind: string;
  head: Head;
  main: string;
  shell: Shell;
  assets: DocumentAssets;
  settings: SiteSettings;
  skipLabel: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The page-specific head tags; the client runtime swaps them on navigation. */
export function headTags(head: Head, settings: SiteSettings, ogLocale: string): string {
  const tags: string[] = [`<title>${escapeHtml(head.title)}</title>`, meta('name', 'description', head.description)];
  if (head.noindex) tags.push(meta('name', 'robots', 'noindex'));
  if (head.canonical) {
    const url = absoluteUrl(settings, head.canonical);
    tags.push(`<link rel="canonical" href="${escapeHtml(url)}">`, meta('property', 'og:url', url));
  }
  tags.push(
    meta('property', 'og:type', head.ogType),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:site_name', settings.title),
    meta('property', 'og:locale', ogLocale),
    ...shareCardTags(head, settings),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
  );
  if (head.published) tags.push(meta('property', 'article:published_time', head.published));
  if (head.modified) tags.push(meta('property', 'article:modified_time', head.modified));
  if (head.author) tags.push(meta('property', 'article:author', head.author));
  for (const alternate of head.alternates) {
    tags.push(`<link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}">`);
  }
  if (head.feed) tags.push(`<link rel="alternate" type="application/rss+xml" title="${escapeHtml(head.feed.title)}" href="${escapeHtml(head.feed.href)}">`);
  for (const data of head.structuredData) tags.push(`<script type="application/ld+json">${safeJsonForScript(jsonLdFor(settings, data))}</script>`);
  return tags.join('\n');
}

/** og:image and twitter:image: the article's 1200 × 630 card, or the site's (site/pictures/). */
function shareCardTags(head: Head, settings: SiteSettings): string[] {
  const url = absoluteUrl(settings, head.image?.path ?? urls.siteCard());
  const alt = head.image?.alt ?? settings.title;
  return [
    meta('property', 'og:image', url),
    meta('property', 'og:image:type', 'image/jpeg'),
    meta('property', 'og:image:width', String(COVER_WIDTH)),
    meta('property', 'og:image:height', String(COVER_HEIGHT)),
    meta('property', 'og:image:alt', alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:image', url),
    meta('name', 'twitter:image:alt', alt),
  ];
}

function meta(attribute: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
}

/** Pages that say something went wrong carry no advertising, not even the "new url" block. */
const ERROR_PAGES = new Set(['notFound', 'serverError']);

export function renderDocument(input: DocumentInput): string {
  const { assets, settings } = input;
  return `<!doctype html>
<html lang="${input.lang}">
<head>
<meta charset="utf-8">
${CONTENT_SECURITY_POLICY_META}
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0d5c3f">
${assets.build ? `<meta name="felt-build" content="${escapeHtml(assets.build)}">\n` : ''}<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/icons/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="${urls.logo(settings.brand)}">
<link rel="stylesheet" href="${assets.css}">
<link rel="preload" href="${assets.staticQuery}" as="fetch" crossorigin="anonymous">
<script type="module" src="${assets.js}" fetchpriority="low"></script>
${(assets.preload ?? []).map((chunk) => `<link rel="modulepreload" href="${chunk}" fetchpriority="low">`).join('\n')}
<meta name="felt-head" content="start">
${headTags(input.head, settings, input.ogLocale)}
<meta name="felt-head" content="end">
</head>
<body>
<a class="skip-link" href="#main">${escapeHtml(input.skipLabel)}</a>
<header id="site-header" class="site-header" data-sq="${assets.staticQuery}"${assets.islands?.length ? ` data-islands="${escapeHtml(assets.islands.join(' '))}"` : ''}>${input.shell.header}</header>
${ERROR_PAGES.has(input.kind) ? '' : input.shell.newUrl}
<main id="main" class="main" tabindex="-1" data-kind="${input.kind}">${input.main}</main>
<footer class="site-footer">${input.shell.footer}</footer>
<div id="announcer" class="visually-hidden" role="status" aria-live="assertive" aria-atomic="true"></div>
</body>
</html>
`;
}
