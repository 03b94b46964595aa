/**
 * Prefetch (SPEC section 4): links entering the viewport are queued, and
 * their pages (page data and HTML, pageData.ts) are fetched 4 at a time
 * every 3 seconds. Nothing is prefetched on 2g, with data-saver on, or for
 * crawlers.
 */
import { pagePath, pageUrlOf } from './links.ts';
import { fetchPage, type PageLoader } from './pageData.ts';

export const PREFETCH_BATCH = 4;
export const PREFETCH_DELAY_MS = 3000;
const CRAWLERS = /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|quora link preview|bingpreview|lighthouse|pingdom|ia_archiver/i;

interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

export function prefetchAllowed(nav: Navigator = navigator): boolean {
  const connection = (nav as Navigator & { connection?: NetworkInformationLike }).connection;
  if (connection?.saveData) return false;
  if (connection?.effectiveType?.includes('2g')) return false;
  return !CRAWLERS.test(nav.userAgent);
}

export class Prefetcher {
  private readonly queue: string[] = [];
  private readonly seen = new Set<string>();
  private timer?: ReturnType<typeof setTimeout>;
  private readonly observer: IntersectionObserver;

  constructor(private readonly loader: PageLoader) {
    this.seen.add(pagePath(new URL(location.href)));
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        this.observer.unobserve(entry.target);
        const url = pageUrlOf(entry.target);
        if (url) this.enqueue(pagePath(url));
      }
    });
  }

  /** Watches the links under root. */
  watch(root: ParentNode): void {
    for (const anchor of root.querySelectorAll('a[href]')) this.observer.observe(anchor);
  }

  private enqueue(path: string): void {
    if (this.seen.has(path) || this.loader.has(path)) return;
    this.seen.add(path);
    this.queue.push(path);
    this.timer ??= setTimeout(() => this.flush(), PREFETCH_DELAY_MS);
  }

  private flush(): void {
    this.timer = undefined;
    for (const path of this.queue.splice(0, PREFETCH_BATCH)) {
      // The header tells a prefetch apart in logs and tests; same-origin, so no preflight.
      void fetchPage(path, { priority: 'low', headers: { 'X-Felt-Prefetch': '1' } } as RequestInit).then((fetched) => {
        if (fetched.status === 'ok') this.loader.remember(path, fetched.value);
      });
    }
    if (this.queue.length > 0) this.timer = setTimeout(() => this.flush(), PREFETCH_DELAY_MS);
  }
}
