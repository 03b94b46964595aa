/** Which links the router takes over, and where a path's page data lives. */
import { ERROR_PAGES } from '../../../shared/errorPages.ts';

/** The same-origin page a click on this anchor opens, or undefined when the browser should handle it. */
export function pageUrlOf(target: EventTarget | null): URL | undefined {
  const anchor = target instanceof Element ? target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement)) return undefined;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return undefined;
  if (anchor.relList.contains('external') || anchor.dataset.fullLoad !== undefined) return undefined;
  return pageUrl(anchor.href);
}

/** A URL the router can render from page data: same origin, http(s), a page rather than a file. */
export function pageUrl(href: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href, location.href);
  } catch {
    return undefined;
  }
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol)) return undefined;
  const path = url.pathname;
  // Files (feeds, sitemap.xml, images) and the server's own routes load as themselves. A path that starts with two
  // slashes would be another host's address once it is fetched on its own ("//articles/x" is http://articles/x).
  if (/\.[a-z0-9]+$/i.test(path) || path.startsWith('/__') || path.startsWith('/page-data/') || path.startsWith('//')) return undefined;
  return url;
}

/** /page-data/{path}/page-data.json, "index" for the home page (SPEC section 7). */
export function pageDataUrl(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return `/page-data/${trimmed === '' ? 'index' : trimmed}/page-data.json`;
}

/** The error pages' HTML files, by their paths: the paths answer with their status, the files with 200. */
const ERROR_DOCUMENTS: Record<string, string> = Object.fromEntries(Object.values(ERROR_PAGES).map((page) => [page.path, `/${page.file}`]));

/** The address of a page's HTML document on this site: the page's own path, but for the error pages. */
export function documentUrl(path: string): string {
  return onThisSite(ERROR_DOCUMENTS[path] ?? path);
}

/** The path's address on this site: joined to the origin, not resolved against it ("//host/x" would name a host). */
export function onThisSite(path: string): string {
  return `${location.origin}/${path.replace(/^\/+/, '')}`;
}

/** The path part that names a page: no trailing slash except for the home page. */
export function pagePath(url: URL): string {
  return url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '/';
}
