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

/** Asks the worker to keep this page and everything it loaded from this site. */
export function rememberPage(extra: string[] = []): void {
  const resources = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.startsWith(location.origin) && !name.includes('/__') && !name.endsWith('/app-data.json'));
  const urls = [location.pathname, ...resources, ...extra];
  // The first visit: the worker is active but does not control the page yet.
  const controller = navigator.serviceWorker?.controller;
  if (controller) controller.postMessage({ type: 'felt-cache', urls });
  else void navigator.serviceWorker?.ready.then((registration) => registration.active?.postMessage({ type: 'felt-cache', urls }));
}
