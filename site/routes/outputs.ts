/**
 * Every file a build writes, known before anything is rendered: each page's
 * HTML and page data (from the page entries of routes.ts), the feeds, and
 * the build's own files and folders. collisions.ts finds two owners of one
 * file here, so a route can never silently overwrite another.
 *
 * The build's own files are written in build.ts; tests/site/collisions.test.ts
 * checks that every file a build writes is claimed here.
 */
import { urls } from '../model/urls.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { MAX_URLS_PER_SITEMAP } from '../indexes/sitemapXml.ts';
import { pageOutputPaths } from './pageFiles.ts';
import { pageEntries } from './routes.ts';
import { categoryOwner, feltOwned, type Owner } from './routeParts.ts';

/** A page's HTML or data, a feed; or one of the build's own files, which are never inside one of its folders by mistake. */
export type OutputRole = 'page' | 'pageData' | 'feed' | 'build';

/** Whoever writes a file: a page entry, or one of the build's own files. Its owner is read only when there is a dispute. */
export interface Writer {
  readonly owner: Owner;
}

/** Called once per file the build writes; `file` is relative to the output folder. */
export type Claim = (file: string, role: OutputRole, writer: Writer) => void;

/**
 * Folders the build fills with files whose names are known only once they
 * are made (content hashes), or that browsers, crawlers and caches treat
 * apart. No page may live inside one: a category "assets" would be cached
 * as immutable for a year, a category "slice-data" hidden from search engines.
 */
export interface FolderClaim {
  folder: string;
  /** What the folder holds, as the end of a sentence: "into assets/, which holds …". */
  holds: string;
  /** page-data/ is where page data belongs; only pages' HTML and feeds may not go there. */
  admitsPageData?: boolean;
  /** Files of felt's own that belong there: the search page's HTML sits beside its index. */
  admits?: readonly string[];
}

export const BUILD_FOLDERS: readonly FolderClaim[] = [
  { folder: 'assets/', holds: 'the hashed scripts and styles, cached as immutable' },
  // search/index.html is the results page, /search?q=… (issue 18); only the index's hashed folders are immutable.
  { folder: 'search/', holds: 'the search index, cached as immutable', admits: ['search/index.html'] },
  { folder: 'page-data/', holds: 'the page data, which robots.txt keeps crawlers out of', admitsPageData: true },
  { folder: 'page-data/sq/d/', holds: 'the shared page data, cached as immutable' },
  // No longer written (issue 18), still kept from pages: robots.txt keeps crawlers out of it, and older deployments may hold files there.
  { folder: 'slice-data/', holds: 'what older builds wrote there, which robots.txt keeps crawlers out of' },
  { folder: 'images/', holds: 'the cover images and share cards' },
  { folder: '.felt/', holds: 'the build manifest' },
];

/** The build folder a file may not be written into, if any. */
export function forbiddenFolder(file: string, role: OutputRole): FolderClaim | undefined {
  if (role === 'build') return undefined;
  for (const folder of BUILD_FOLDERS) {
    if (file.startsWith(folder.folder) && !(role === 'pageData' && folder.admitsPageData) && !folder.admits?.includes(file)) return folder;
  }
  return undefined;
}

/**
 * Every file the build writes for this model, in this order: the build's
 * own files, pages (home, listings, authors, info pages, sitemap, error
 * pages, articles), feeds, sitemaps. Reads only paths: no page is made. A
 * callback, not a list: at 100,000 articles that is 240,000 files.
 */
export function claimOutputs(model: SiteModel, claim: Claim, { articles = true }: { articles?: boolean } = {}): void {
  const own = (file: string, name: string) => claim(file, 'build', { owner: feltOwned(name) });
  own('robots.txt', 'robots.txt');
  own('sw.js', 'the service worker');
  own('favicon.ico', 'the favicon');
  own(urls.logo(model.content.settings.brand).slice(1), 'the logo');
  own('icons/icon.svg', 'the icon');
  own('page-data/app-data.json', 'the build hash');
  let pages = 0;
  for (const entry of pageEntries(model)) {
    // Article entries come last, one per article: without them, counted rather than made.
    if (entry.kind === 'article' && !articles) {
      pages += model.articles.length;
      break;
    }
    pages++;
    const [html, data] = pageOutputPaths(entry);
    claim(html, 'page', entry);
    claim(data, 'pageData', entry);
  }
  // build.ts feeds(): the site's feed and one per category.
  own(urls.feed().slice(1), 'the site feed');
  for (const category of model.content.categories) claim(urls.categoryFeed(category.slug).slice(1), 'feed', { owner: categoryOwner(model, category) });
  // sitemap.xml, and past the protocol's limit the files it indexes (at most one entry per page).
  own('sitemap.xml', 'sitemap.xml');
  if (pages > MAX_URLS_PER_SITEMAP) {
    for (let i = 1; (i - 1) * MAX_URLS_PER_SITEMAP < pages; i++) own(`sitemap-${i}.xml`, 'sitemap.xml');
  }
}
