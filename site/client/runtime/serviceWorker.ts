/**
 * Registers /sw.js on https and on localhost only; anywhere else a console
 * error and nothing more (SPEC section 8). Once it runs, the worker is told
 * which files the current page used, so the page opens offline next time.
 */
const LOCAL_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export function serviceWorkerAllowed(loc: Location = location): boolean {
  return loc.protocol === 'https:' || LOCAL_HOST.test(loc.hostname);
}

export function registerServiceWorker(): void {
  if (!serviceWorkerAllowed()) {
    console.error(`felt: the service worker runs on https or localhost only, not on ${location.origin}; offline reading is off.`);
    return;
  }
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(
    () => navigator.serviceWorker.ready.then(() => rememberPage()),
    (error: unknown) => console.error('felt: the service worker could not be registered', error),
  );
}

/** The address the browser loaded, unless it answered with an error (a missing page's 404): asked again, it would only be that again. */
function thisDocument(): string[] {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation && navigation.responseStatus >= 400 ? [] : [location.pathname];
}

/**
 * Asks the worker to keep this page and everything it loaded from this site. `pageFiles`: what the router read a
 * page it rendered from (its page data and its document, pageData.ts), in place of the address the browser loaded:
 * the router may have shown another page there (the 404 page), or read it at the other form of the address (without
 * the slash at its end), which the worker would fetch again.
 */
export function rememberPage(pageFiles?: string[]): void {
  const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    // Not what answered with an error (the document of a missing page the router asked for, then its HEAD):
    // the worker would only ask for it again. responseStatus is newer than the rest (Chrome 109, Firefox 111).
    .filter((entry) => !(entry.responseStatus >= 400))
    .map((entry) => entry.name)
    .filter((name) => name.startsWith(location.origin) && !name.includes('/__') && !name.endsWith('/app-data.json'));
  const urls = [...(pageFiles ?? thisDocument()), ...resources];
  // The first visit: the worker is active but does not control the page yet.
  const controller = navigator.serviceWorker?.controller;
  if (controller) controller.postMessage({ type: 'felt-cache', urls });
  else void navigator.serviceWorker?.ready.then((registration) => registration.active?.postMessage({ type: 'felt-cache', urls }));
}
