/**
 * Loading a page's data for client-side navigation, with the outcomes of
 * SPEC section 8: missing or invalid data → the 404 page once a HEAD request
 * confirms the page does not exist (a full load when it does); a 500 → the
 * 500 page; any other failure retried up to 3 times, then a full load.
 */
import { pageDataUrl } from './links.ts';

export interface PageData {
  componentChunkName: string;
  path: string;
  webpackCompilationHash: string;
  result: { pageContext: { kind: string; head: { title: string }; headHtml?: string; html: string } };
}

export type PageLoad = { type: 'page' | 'notFound' | 'serverError'; data: PageData } | { type: 'full' };

export const RETRIES = 3;
/** The wait before each retry (SPEC section 9's page-load poll). */
export const RETRY_DELAY_MS = 200;

type Fetched = { status: 'ok'; data: PageData } | { status: 'missing' } | { status: 'serverError' } | { status: 'failed' };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isPageData(value: unknown): value is PageData {
  const data = value as PageData | null;
  const context = data?.result?.pageContext;
  return (
    typeof data?.componentChunkName === 'string' &&
    typeof context?.html === 'string' &&
    typeof context.kind === 'string' &&
    typeof context.head?.title === 'string'
  );
}

/** One page-data file, with retries on statuses other than 200, 404 and 500. */
export async function fetchPageData(path: string, init: RequestInit = {}): Promise<Fetched> {
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (attempt > 0) await wait(RETRY_DELAY_MS);
    const response = await fetch(pageDataUrl(path), { credentials: 'same-origin', ...init }).catch(() => undefined);
    if (!response) continue;
    if (response.status === 404) return { status: 'missing' };
    if (response.status === 500) return { status: 'serverError' };
    if (!response.ok) continue;
    const data: unknown = await response.json().catch(() => undefined);
    return isPageData(data) ? { status: 'ok', data } : { status: 'missing' };
  }
  return { status: 'failed' };
}

/** Whether the page itself exists, though its data does not: HEAD to the path. */
async function pageExists(path: string): Promise<boolean | undefined> {
  const response = await fetch(path, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' }).catch(() => undefined);
  if (!response) return undefined;
  return response.status !== 404;
}

export class PageLoader {
  private readonly cache = new Map<string, PageData>();

  /** Keeps good data a prefetch brought, for the navigation that follows. */
  remember(path: string, data: PageData): void {
    this.cache.set(path, data);
  }

  has(path: string): boolean {
    return this.cache.has(path);
  }

  async load(path: string): Promise<PageLoad> {
    const cached = this.cache.get(path);
    if (cached) return { type: 'page', data: cached };
    const fetched = await fetchPageData(path);
    switch (fetched.status) {
      case 'ok':
        this.cache.set(path, fetched.data);
        return { type: 'page', data: fetched.data };
      case 'serverError':
        return this.errorPage('/500', 'serverError');
      case 'failed':
        return { type: 'full' };
      case 'missing': {
        const exists = await pageExists(path);
        return exists === false ? this.errorPage('/404', 'notFound') : { type: 'full' };
      }
    }
  }

  private async errorPage(path: string, type: 'notFound' | 'serverError'): Promise<PageLoad> {
    const fetched = await fetchPageData(path);
    return fetched.status === 'ok' ? { type, data: fetched.data } : { type: 'full' };
  }
}
