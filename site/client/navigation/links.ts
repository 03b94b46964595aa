/** Which links the router takes over, and where a path's page data lives. */

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

/**
 * The error pages' HTML files (their paths answer with their status, the files with 200): the build's SPECIAL_FILES
 * (site/pages/types.ts), written out here because that module's types would take the build's into the client's project.
 */
const ERROR_DOCUMENTS: Record<string, string> = { '/404': '/404.html', '/500': '/500.html' };

/** The address of a page's HTML document on this site: the page's own path, but for the error pages. */
export function documentUrl(path: string): string {
  // Joined to the origin, not resolved against it: whatever the path holds, the address stays on this site.
  return `${location.origin}/${(ERROR_DOCUMENTS[path] ?? path).replace(/^\/+/, '')}`;
}

/** The path part that names a page: no trailing slash except for the home page. */
export function pagePath(url: URL): string {
  return url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '/';
}
