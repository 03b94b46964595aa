/**
 * The service worker, /sw.js (bundled on its own by
 * site/assets/serviceWorker.ts, which fills in the build hash and the
 * offline page). Pages and page data come from the network first and fall
 * back to the copy kept when the visitor last opened them; hashed assets
 * come from the cache first. A new build's worker deletes older caches.
 */
import { isImmutablePath } from '../../../shared/cacheRules.ts';

declare const FELT_BUILD: string;
declare const FELT_OFFLINE_HTML: string;

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface MessageEventLike extends ExtendableEventLike {
  data: unknown;
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

const worker = self as unknown as WorkerScope;
const CACHE = `felt-${FELT_BUILD}`;
const NEVER = /^\/(__|sw\.js$|page-data\/app-data\.json$)/;

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('felt-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || NEVER.test(url.pathname)) return;
  event.respondWith(isImmutablePath(url.pathname.slice(1)) ? cacheFirst(request) : networkFirst(request));
});

worker.addEventListener('message', (event) => {
  const data = event.data as { type?: string; urls?: unknown } | null;
  if (data?.type !== 'felt-cache' || !Array.isArray(data.urls)) return;
  event.waitUntil(keep(data.urls.filter((u): u is string => typeof u === 'string')));
});

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await store(cache, request, response.clone());
  return response;
}

async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await store(cache, request, response.clone());
    return response;
  } catch (error) {
    const navigating = request.mode === 'navigate';
    const hit =
      (await cache.match(request, { ignoreSearch: navigating })) ??
      (navigating ? await cache.match(otherForm(request.url), { ignoreSearch: true }) : undefined);
    if (hit) return hit;
    if (navigating) return new Response(FELT_OFFLINE_HTML, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    throw error;
  }
}

/** The address in full, on this site's origin when relative; none when it is no address. */
function absoluteAddress(href: string): string | undefined {
  try {
    return new URL(href, worker.location.origin).href;
  } catch {
    return undefined;
  }
}

/** Keeps what a page used (sent by the page), fetching what is not kept yet. */
async function keep(urls: string[]): Promise<void> {
  const cache = await caches.open(CACHE);
  // One fetch an address, however the page wrote it ("/x" and "https://site/x"); one that is no address is left out.
  const addresses = new Set(urls.flatMap((href) => absoluteAddress(href) ?? []));
  await Promise.all(
    [...addresses].map(async (href) => {
      const url = new URL(href);
      if (url.origin !== worker.location.origin || NEVER.test(url.pathname) || (await cache.match(url.href))) return;
      const response = await fetch(url.href, { credentials: 'same-origin' }).catch(() => undefined);
      if (response?.ok) await store(cache, url.href, response);
    }),
  );
}

/**
 * Keeps an answer for the address asked and, when a redirect led to it, for the address it came from too, each as if
 * no redirect had happened. A static host answers a folder's address with a redirect to it with a slash (Cloud
 * Storage: /articles/x to /articles/x/): a browser refuses a redirected answer for a page load, and remembers a 301,
 * so that offline it asks for /articles/x/ where the router had fetched /articles/x.
 */
async function store(cache: Cache, request: RequestInfo, response: Response): Promise<void> {
  // Only this site's own answers. A redirect to another origin (a retraction's or a host's redirect rule) ends in
  // that site's page; kept under this site's address and replayed offline, its markup ran with this origin, and a
  // new Response() below would have dropped the mark that it came from elsewhere.
  if (response.type !== 'basic' || !isOwnAddress(response.url)) return;
  if (!response.redirected) return cache.put(request, response);
  const plain = (body: Response) => new Response(body.body, { status: body.status, statusText: body.statusText, headers: body.headers });
  await cache.put(response.url, plain(response.clone()));
  await cache.put(request, plain(response));
}

/** An answer's address on this site's origin (an empty one, as a Response made here has, is not). */
function isOwnAddress(address: string): boolean {
  try {
    return new URL(address).origin === worker.location.origin;
  } catch {
    return false;
  }
}

/** The same page's address with the slash at its end the other way round: /authors/ for /authors, and back. */
function otherForm(address: string): string {
  const url = new URL(address);
  if (url.pathname !== '/') url.pathname = url.pathname.endsWith('/') ? url.pathname.replace(/\/+$/, '') : `${url.pathname}/`;
  return url.href;
}
