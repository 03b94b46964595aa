/**
 * Loading a page for client-side navigation, with the outcomes of SPEC
 * section 8: missing or invalid data → the 404 page once a HEAD request
 * confirms the page does not exist (a full load when it does); a 500 → the
 * 500 page; any other failure retried up to 3 times, then a full load.
 *
 * A page is two requests made at once: its page data (the kind, the title,
 * the build: what the router decides by) and its HTML document, the very
 * file a full load of the page reads, from which the router takes <main> and
 * the page's own head tags. The page data does not carry that HTML a second
 * time (README, "Page data"): every page was written twice, and the browser
 * and the service worker now keep one copy of a page whichever way it was
 * opened.
 */
import { ERROR_PAGES } from '../../../shared/errorPages.ts';
import { headTagsOf } from './head.ts';
import { documentUrl, onThisSite, pageDataUrl } from './links.ts';

export interface PageData {
  componentChunkName: string;
  path: string;
  webpackCompilationHash: string;
  result: { pageContext: { kind: string; head: { title: string } } };
}

/**
 * A page ready to render: its page data, and from its HTML document (parsed inert, never attached) its <main> and its
 * own head tags. The router shows copies of them, so a page kept for a later visit is kept as it came.
 */
export interface LoadedPage {
  data: PageData;
  main: Element;
  head: Element[];
  /** The addresses it was read from, its page data's and its document's: what the service worker keeps for it. */
  files: string[];
}

export type PageLoad = { type: 'page' | 'notFound' | 'serverError'; page: LoadedPage } | { type: 'full' };

export const RETRIES = 3;
/** The wait before each retry (SPEC section 9's page-load poll). */
export const RETRY_DELAY_MS = 200;

type Failed = { status: 'missing' } | { status: 'serverError' } | { status: 'failed' };
type Fetched<T> = { status: 'ok'; value: T } | Failed;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isPageData(value: unknown): value is PageData {
  const data = value as PageData | null;
  const context = data?.result?.pageContext;
  return typeof data?.componentChunkName === 'string' && typeof context?.kind === 'string' && typeof context.head?.title === 'string';
}

/** One file, with retries on statuses other than 200, 404 and 500; `read` turns its body into a value, or undefined when invalid. */
async function fetchWithRetries<T>(url: string, init: RequestInit, read: (response: Response) => Promise<T | undefined>): Promise<Fetched<T>> {
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (attempt > 0) await wait(RETRY_DELAY_MS);
    const response = await fetch(url, { credentials: 'same-origin', ...init }).catch(() => undefined);
    if (!response) continue;
    if (response.status === 404) return { status: 'missing' };
    if (response.status === 500) return { status: 'serverError' };
    if (!response.ok) continue;
    const value = await read(response).catch(() => undefined);
    return value === undefined ? { status: 'missing' } : { status: 'ok', value };
  }
  return { status: 'failed' };
}

const readPageData = async (response: Response) => {
  const data: unknown = await response.json();
  return isPageData(data) ? data : undefined;
};

/**
 * The page's HTML, only as this site's own answer for that page: HTML, and from this origin at the page's address. A
 * redirect is followed only to the same address with a slash at the end (a static host's answer for a folder, as
 * Cloud Storage gives); one anywhere else, another site included, is not the page, and the browser follows it itself.
 */
function documentReader(address: string): (response: Response) => Promise<string | undefined> {
  const wanted = new URL(address);
  return async (response) => {
    const landed = new URL(response.url || address);
    const samePage = landed.origin === wanted.origin && landed.pathname.replace(/\/+$/, '') === wanted.pathname.replace(/\/+$/, '');
    const html = /^text\/html\b/i.test(response.headers.get('Content-Type') ?? '');
    return samePage && html ? response.text() : undefined;
  };
}

/**
 * A page: its page data and its HTML document, asked for together so the page
 * costs one round trip. The page data's answer is the page's (SPEC section 8);
 * a document that cannot be had, is not the site's own HTML for the page or
 * has no <main> beside good page data is a failure, and the browser loads the
 * page itself.
 */
export async function fetchPage(path: string, init: RequestInit = {}): Promise<Fetched<LoadedPage>> {
  const address = documentUrl(path);
  const dataAddress = pageDataUrl(path);
  const [data, document] = await Promise.all([fetchWithRetries(dataAddress, init, readPageData), fetchWithRetries(address, init, documentReader(address))]);
  if (data.status !== 'ok') return data;
  // A document refused by its reader comes back 'missing': beside good page data, that too is a failure.
  const parts = document.status === 'ok' ? pageParts(document.value) : undefined;
  return parts && samePage(data.value, parts)
    ? { status: 'ok', value: { data: data.value, main: parts.main, head: parts.head, files: [dataAddress, address] } }
    : { status: 'failed' };
}

/**
 * Whether the document is the page the page data describes, from the same build: its kind on <main> and its build on
 * <meta name="felt-build">. Not so when a deploy has put up one of the two files and not yet the other, or has left
 * an old page's data beside the short page that now redirects from its address: the page data would give the title
 * of one page to the content of another. The browser then loads the page itself.
 */
function samePage(data: PageData, parts: PageParts): boolean {
  return parts.main.dataset.kind === data.result.pageContext.kind && parts.build === data.webpackCompilationHash;
}

interface PageParts {
  main: HTMLElement;
  head: Element[];
  /** The build that wrote the document (<meta name="felt-build">). */
  build: string;
}

/**
 * <main> and the page's own head tags, from a page's HTML. DOMParser runs no script and loads nothing; the nodes are
 * then copied into the page as they were parsed, not written back out as HTML and parsed again, which is where markup
 * can change meaning on the way (mutation XSS).
 */
function pageParts(html: string): PageParts | undefined {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const main = parsed.getElementById('main');
  if (!main) return undefined;
  // Parsed as if script were off, a <noscript>'s inside is markup, where the page shows it as text: none is copied.
  for (const hidden of main.querySelectorAll('noscript')) hidden.remove();
  const build = parsed.querySelector<HTMLMetaElement>('meta[name="felt-build"]')?.content ?? '';
  return { main, head: headTagsOf(parsed), build };
}

/** Whether the page itself exists, though its data does not: HEAD to the path. */
async function pageExists(path: string): Promise<boolean | undefined> {
  // On this site whatever the path holds: fetched as it is, "//host/x" asked another host.
  const response = await fetch(onThisSite(path), { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' }).catch(() => undefined);
  if (!response) return undefined;
  return response.status !== 404;
}

export class PageLoader {
  private readonly cache = new Map<string, LoadedPage>();

  /** Keeps a page a prefetch brought, for the navigation that follows. */
  remember(path: string, page: LoadedPage): void {
    this.cache.set(path, page);
  }

  has(path: string): boolean {
    return this.cache.has(path);
  }

  async load(path: string): Promise<PageLoad> {
    const cached = this.cache.get(path);
    if (cached) return { type: 'page', page: cached };
    const fetched = await fetchPage(path);
    switch (fetched.status) {
      case 'ok':
        this.cache.set(path, fetched.value);
        return { type: 'page', page: fetched.value };
      case 'serverError':
        return this.errorPage(ERROR_PAGES.serverError.path, 'serverError');
      case 'failed':
        return { type: 'full' };
      case 'missing': {
        const exists = await pageExists(path);
        return exists === false ? this.errorPage(ERROR_PAGES.notFound.path, 'notFound') : { type: 'full' };
      }
    }
  }

  private async errorPage(path: string, type: 'notFound' | 'serverError'): Promise<PageLoad> {
    const fetched = await fetchPage(path);
    return fetched.status === 'ok' ? { type, page: fetched.value } : { type: 'full' };
  }
}
