/**
 * Sponsored links: third-party HTML from the ad network. It is sanitised to
 * links and inline text; every link is marked sponsored and opens nothing
 * with our window. The block's heading is chosen by a stable hash of the
 * page path, so a page always shows the same one (SPEC section 1).
 */
import sanitizeHtml from 'sanitize-html';
import { fnv1a } from '../../shared/hash.ts';
import { escapeHtml } from './document.ts';
import type { AdData, AdFile, UiLocale } from '../../shared/types.ts';

const NO_ADS: AdData = { sapeNewUrl: '', sapeLinks: {} };

/** The sponsored copy of one interface language: its own entry, else the top level for English, else none. */
export function adsFor(ads: AdFile, ui: UiLocale): AdData {
  return ads[ui] ?? (ui === 'en' ? { sapeNewUrl: ads.sapeNewUrl, sapeLinks: ads.sapeLinks } : NO_ADS);
}

export const SPONSORED_HEADINGS = ['Sponsored Links', 'Partner Links', 'Recommended Sites', 'Related Resources'] as const;

export function sponsoredHeadingIndex(pagePath: string): number {
  return fnv1a(pagePath) % SPONSORED_HEADINGS.length;
}

export function sponsoredHeading(pagePath: string): string {
  return SPONSORED_HEADINGS[sponsoredHeadingIndex(pagePath)]!;
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'b', 'strong', 'i', 'em', 'span', 'small', 'br'],
  // rel and target are set by transformTags below, which runs before this filter.
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'svg', 'math', 'title'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      // Rebuilt rather than spread: the ad's own rel and target never survive.
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        ...(attribs.title ? { title: attribs.title } : {}),
        rel: 'sponsored noopener',
        target: '_blank',
      },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href,
};

export function sanitizeAdHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** A sponsored link as a page shows it, sanitised; undefined when no link is left in it (the pages drop it). */
export function sponsoredLink(html: string): string | undefined {
  const clean = sanitizeAdHtml(html);
  return /<a\s/.test(clean) ? clean : undefined;
}

/**
 * Sanitised ad HTML whose links tell a screen reader that they open a new tab, as felt's own such links do: `note` is
 * the display language's "opens in a new tab" (locales/, link.opensInNewTab), visually hidden. In sanitised output
 * every `</a>` is a link's end: sanitize-html escapes the ad's text.
 */
export function announceNewTab(clean: string, note: string): string {
  return clean.replaceAll('</a>', `<span class="visually-hidden"> (${escapeHtml(note)})</span></a>`);
}

/** The link lists for a page, sanitised and capped, dropping what sanitised to nothing. */
export function sponsoredLinksFor(links: Record<string, string[]>, pagePath: string, limit?: number): string[] {
  const list = Object.hasOwn(links, pagePath) ? links[pagePath]! : [];
  const clean = list.map(sponsoredLink).filter((html) => html !== undefined);
  return limit ? clean.slice(0, limit) : clean;
}
