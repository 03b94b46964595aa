/**
 * How long a copy of each file of the site may be used: the Cache-Control values that `felt serve` and
 * `felt deploy` send (site/serve/headers.ts picks one per file), and the rule for the files named by their bytes'
 * hash, which the service worker (site/client/sw/sw.ts) answers from its cache first. Free of Node: the browser
 * project (site/client/tsconfig.json) lists it for the worker.
 */

/** A file named by its bytes' hash never changes under its name: kept a year, never asked about again. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages and their data: kept, but asked about on every use, so a new build is seen at once. */
export const REVALIDATE = 'public, max-age=0, must-revalidate';
/** Asked about on every use: the worker (a stale one would keep an old build) and the search manifest (it names the index's files). */
export const NO_CACHE = 'no-cache';
/** Everything else (pictures, feeds, sitemaps): an hour. */
export const ONE_HOUR = 'public, max-age=3600';

// The bundles and the static query files, named by esbuild's and shortHash's hash, and the search index's folders,
// named by indexId's 12 hex characters (search/manifest.json, whose name never changes, does not match).
const HASHED = /^(assets\/|page-data\/sq\/d\/|search\/[0-9a-f]{8,}\/)/;

/** Whether a file, by its path in the site without a leading slash, is named by its bytes' hash. */
export function isImmutablePath(file: string): boolean {
  return HASHED.test(file);
}
