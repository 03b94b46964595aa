/**
 * SiteModel → every page of the site as a PageSpec (DESIGN.md, "Routes").
 * Pure: no disk, no React. Listing pages paginate by settings.home.pageSize,
 * with archive pages numbered from the oldest (model/pagination.ts).
 */
import type { Article, Author, CategoryNode } from '../../shared/types.ts';
import { plainName } from '../../shared/names.ts';
import { ERROR_PAGES } from '../../shared/errorPages.ts';
import type { Crumb } from '../components/Breadcrumbs.tsx';
import { subcategoryKey } from '../model/categoryIndex.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { archiveItems, frontItems, itemRange, pageInfo, planListing, type PageInfo } from '../model/pagination.ts';
import { urls } from '../model/urls.ts';
import type { LinkItem, PageKind, PageSpec } from '../pages/types.ts';
import { articleEntries, buildWideInputs, cardTokens } from './articlePages.ts';
import { digest } from '../../shared/digest.ts';
import type { ListingPlace } from '../build/additions.ts';
import { authorOwner, categoryOwner, feltOwned, home, sponsorship, subcategoryOwner, type Draft, type Owner } from './routeParts.ts';

/**
 * A page before it is made: where it goes and whose it is are known at once
 * (outputs.ts lists every file of the build from them, without making a
 * page); spec() makes it. Article pages also say what they are made from
 * (articlePages.ts), so a rebuild can skip making the ones nothing touched.
 */
export interface PageEntry {
  path: string;
  kind: PageKind;
  /** Named when another page or file claims one of this page's files (collisions.ts). */
  owner: Owner;
  /** Digest of everything the page is made from; set for article and listing pages, which are always in the sitemap. */
  inputs?: string;
  lastmod?: string;
  /** Listing pages: which listing, and which of its pages (build/additions.ts). */
  listing?: ListingPlace;
  spec(): PageSpec;
}

/** A page other than an article's: its place, and draft() to make it. Nothing is translated or looked up until then. */
interface Route {
  path: string;
  kind: PageKind;
  owner: Owner;
  draft(): Draft;
  /** Listing pages: the digest of everything draft() reads (see PageEntry.inputs). Such pages are always in the sitemap. */
  inputs?: () => string;
  listing?: ListingPlace;
}

/**
 * Made as they are walked, and not kept: the route check (collisions.ts) walks them for their paths, the build again
 * for their inputs and specs. Kept for the build, the list held 264 B an article on the build's heap (a heap snapshot
 * at 50,000, README "Memory as the site grows"). Article entries come last: the route check counts them without
 * making them unless another page's file lies where an article's could (outputs.ts, collisions.ts).
 */
export function* pageEntries(model: SiteModel): Generator<PageEntry> {
  const routes: Iterable<Route>[] = [
    [{ path: urls.home(), kind: 'home', owner: feltOwned('the home page'), draft: () => homePage(model) }],
    listingRoutes(model),
    authorRoutes(model),
    infoRoutes(model),
    [sitemapRoute(model), searchRoute(model), errorRoute(model, 'notFound'), errorRoute(model, 'serverError')],
  ];
  const sponsor = sponsorship(model);
  for (const group of routes) {
    for (const { draft, inputs, ...route } of group) {
      const entry: PageEntry = { ...route, spec: () => sponsor(draft()) };
      // Worked out on first read: the route check walks every entry for its path alone.
      if (inputs) Object.defineProperty(entry, 'inputs', { get: once(inputs), enumerable: true });
      yield entry;
    }
  }
  yield* articleEntries(model, sponsor);
}

export function* allPages(model: SiteModel): Generator<PageSpec> {
  for (const entry of pageEntries(model)) yield entry.spec();
}

/** How many pages allPages() yields, without making them: for progress. */
export function countPages(model: SiteModel): number {
  const listings = [...model.index.byCategory.values(), ...model.index.bySubcategory.values()];
  const authors = model.content.authors.map((a) => model.articlesByAuthor.get(a.name) ?? []);
  const paged = [...listings, ...authors].reduce((sum, ids) => sum + pageCount(model, ids.length), 0);
  // home, authors, sitemap, search, 404, 500, the info pages, and one page per article
  return 6 + paged + INFO_ROUTES.length + model.articles.length;
}

/** Made on first call, then shared: what all pages of one listing show alike. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

function summariesOf(model: SiteModel, ids: string[]) {
  return ids.map((id) => model.summaries.get(id)!);
}

function homePage(model: SiteModel): Draft {
  const { t, pick } = model.translator;
  const { settings, categories } = model.content;
  const counts = settings.home;
  const ids = model.articles.map((a) => a.id);
  const lead = ids.slice(0, counts.moreAwesomeStuff);
  const best = ids.slice(lead.length, lead.length + counts.ourBestStories);
  const updated = latestUpdated(model.articles, counts.updatedArticles).map((a) => a.id);
  const description = t('home.description', { title: settings.title });
  return {
    kind: 'home',
    path: '/',
    head: {
      title: t('home.title', { title: settings.title }),
      description,
      canonical: '/',
      ogType: 'website',
      structuredData: [{ type: 'website', description, locale: model.locale }],
      alternates: [],
      feed: { title: t('feed.title', { site: settings.title }), href: urls.feed() },
    },
    props: {
      lead: summariesOf(model, lead),
      best: summariesOf(model, best),
      updated: summariesOf(model, updated),
      categories: categories.map((category) => ({
        title: pick(category.title),
        href: urls.category(category.slug),
        description: pick(category.description),
        articles: summariesOf(model, (model.index.byCategory.get(category.key) ?? []).slice(0, counts.perCategory)),
      })),
    },
  };
}

/**
 * The `count` articles updated last (an update later than the article's date), latest first; ties keep the
 * articles' order, as a stable sort would. One pass keeping the few best: sorting every updated article took a
 * quarter of a second at 100,000. Plain comparisons: ISO dates order by code unit.
 */
export function latestUpdated(articles: readonly Article[], count: number): Article[] {
  const best: Article[] = [];
  if (count <= 0) return best;
  for (const article of articles) {
    const updated = article.updated;
    if (!updated || updated <= article.date) continue;
    if (best.length === count && updated <= best[count - 1]!.updated!) continue;
    // After every kept article updated at the same time or later: the earlier in the list wins a tie.
    let at = best.length;
    while (at > 0 && best[at - 1]!.updated! < updated) at--;
    best.splice(at, 0, article);
    if (best.length > count) best.pop();
  }
  return best;
}

interface Listing {
  base: string;
  kind: 'category' | 'subcategory';
  owner: Owner;
  node: CategoryNode;
  ids: string[];
  /** What every page of the listing shows alike, made when its first page is. */
  shared: () => { trail: Crumb[]; topics: LinkItem[]; feed?: { title: string; href: string } };
}

function* listingRoutes(model: SiteModel): Generator<Route> {
  const { t, pick } = model.translator;
  const site = model.content.settings.title;
  for (const category of model.content.categories) {
    const base = urls.category(category.slug);
    // Emoji decorate the menu and the cards; a trail, a title or a feed is read out or by machines (shared/names.ts plainName).
    const trail = once(() => [home(model), { name: plainName(pick(category.title)), href: base }]);
    const feed = once(() => ({ title: t('feed.categoryTitle', { site, category: plainName(pick(category.title)) }), href: urls.categoryFeed(category.slug) }));
    const topics = once(() =>
      category.children.map((child) => ({
        title: pick(child.title),
        href: urls.subcategory(category.slug, child.slug),
        count: model.index.bySubcategory.get(subcategoryKey(category.key, child.key))?.length ?? 0,
      })),
    );
    const ids = model.index.byCategory.get(category.key) ?? [];
    const shared = once(() => ({ trail: trail(), topics: topics(), feed: feed() }));
    const owner = categoryOwner(model, category);
    yield* paginate(model, { base, kind: 'category', owner, node: category, ids, shared });
    for (const child of category.children) {
      const childBase = urls.subcategory(category.slug, child.slug);
      const childIds = model.index.bySubcategory.get(subcategoryKey(category.key, child.key)) ?? [];
      const childShared = once(() => ({ trail: [...trail(), { name: plainName(pick(child.title)), href: childBase }], topics: [], feed: feed() }));
      yield* paginate(model, {
        base: childBase,
        kind: 'subcategory',
        owner: subcategoryOwner(model, category, child, owner),
        node: child,
        ids: childIds,
        shared: childShared,
      });
    }
  }
}

/** The front page and archive pages of a newest-first list (model/pagination.ts): their paths, and what each shows once made. */
function* pagesOf(model: SiteModel, base: string, ids: string[]): Generator<{ path: string; page: number; shown(): { ids: string[]; pagination: PageInfo } }> {
  const size = model.content.settings.home.pageSize;
  const { archives } = planListing(ids.length, size);
  yield { path: base, page: 0, shown: () => ({ ids: frontItems(ids, size), pagination: pageInfo(base, 0, archives) }) };
  for (let page = archives; page >= 1; page--) {
    yield { path: urls.page(base, page), page, shown: () => ({ ids: archiveItems(ids, size, page), pagination: pageInfo(base, page, archives) }) };
  }
}

function pageCount(model: SiteModel, total: number): number {
  return 1 + planListing(total, model.content.settings.home.pageSize).archives;
}

/**
 * An archive page's title names its number, before the last " | " part, the site's name by the titles' convention
 * ("Betting Strategies (Page 2) | Felt Magazine": a tab or a search result cut short keeps the number); the front
 * page's is the listing's own.
 */
function pageTitle(model: SiteModel, title: string, page: number): string {
  if (page <= 0) return title;
  const numbered = `(${model.translator.t('pagination.page', { page })})`;
  const site = title.lastIndexOf(' | ');
  return site > 0 ? `${title.slice(0, site)} ${numbered}${title.slice(site)}` : `${title} ${numbered}`;
}

function* paginate(model: SiteModel, listing: Listing): Generator<Route> {
  for (const { path, page, shown } of pagesOf(model, listing.base, listing.ids)) {
    yield {
      path,
      kind: listing.kind,
      owner: listing.owner,
      draft: () => listingPage(model, listing, path, page, shown()),
      listing: { ids: listing.ids, page },
      // The front page shows the topics' counts and the total; archive pages only their articles and numbering.
      inputs: () => listingInputs(model, path, listing.ids, page, page === 0 ? JSON.stringify([listing.shared().topics, listing.ids.length]) : ''),
    };
  }
}

/**
 * The digest of what a listing page shows: its articles (as cardTokens), its numbering, what its front page
 * alone shows, and the build-wide inputs. Its title, trail, feed and headings come from the template key.
 */
function listingInputs(model: SiteModel, path: string, ids: string[], page: number, front: string): string {
  // Its numbering is the newest archive page it links to (pageInfo): its path names the rest. The shown articles
  // are read in place, not sliced out: a rebuild asks this of 18,000 listing pages at 100,000 articles.
  const size = model.content.settings.home.pageSize;
  const { archives } = planListing(ids.length, size);
  let text = `${buildWideInputs(model)}\n${path}\n${pageInfo(path, page, archives).newest}\n${front}`;
  const tokens = cardTokens(model);
  const [start, end] = itemRange(ids.length, size, page);
  for (let i = start; i < end; i++) text += tokens.get(ids[i]!);
  return digest(text);
}

function listingPage(model: SiteModel, listing: Listing, path: string, page: number, { ids, pagination }: { ids: string[]; pagination: PageInfo }): Draft {
  const { t, pick } = model.translator;
  const { settings } = model.content;
  const heading = pick(listing.node.title);
  const description = pick(listing.node.description);
  const { trail, topics, feed } = listing.shared();
  // Counts change with every new article: only the front page shows them, so archive pages stay as they are.
  const uncounted = topics.map(({ count: _count, ...topic }) => topic);
  return {
    kind: listing.kind,
    path,
    head: {
      title: pageTitle(model, t('category.title', { category: plainName(heading), site: settings.title }), page),
      description,
      canonical: path,
      ogType: 'website',
      structuredData: [
        { type: 'collection', path, name: plainName(heading), description },
        { type: 'breadcrumbs', trail },
      ],
      alternates: [],
      feed,
    },
    props: {
      heading,
      description,
      trail,
      topics: page === 0 ? topics : uncounted,
      articles: summariesOf(model, ids),
      pagination,
      total: page === 0 ? listing.ids.length : undefined,
    },
  };
}

function* authorRoutes(model: SiteModel): Generator<Route> {
  const { authors } = model.content;
  yield { path: urls.authors(), kind: 'authors', owner: feltOwned('the authors page'), draft: () => authorsPage(model) };
  for (const [index, author] of authors.entries()) {
    const base = urls.author(author.slug);
    const ids = model.articlesByAuthor.get(author.name) ?? [];
    const owner = authorOwner(model, author, index);
    for (const { path, page, shown } of pagesOf(model, base, ids)) {
      yield {
        path,
        kind: 'author',
        owner,
        draft: () => authorPage(model, author, path, page, ids.length, shown()),
        inputs: () => listingInputs(model, path, ids, page, page === 0 ? String(ids.length) : ''),
        listing: { ids, page },
      };
    }
  }
}

function authorsPage(model: SiteModel): Draft {
  const { t } = model.translator;
  const { settings, authors } = model.content;
  const count = (name: string) => model.articlesByAuthor.get(name)?.length ?? 0;
  return {
    kind: 'authors',
    path: urls.authors(),
    head: {
      title: t('authors.title', { site: settings.title }),
      description: t('authors.description', { site: settings.title }),
      canonical: urls.authors(),
      ogType: 'website',
      structuredData: [{ type: 'breadcrumbs', trail: [home(model), { name: t('authors.heading'), href: urls.authors() }] }],
      alternates: [],
    },
    props: { authors: authors.map((a) => ({ name: a.name, title: a.name, href: urls.author(a.slug), description: a.description, count: count(a.name) })) },
  };
}

function authorPage(
  model: SiteModel,
  author: Author,
  path: string,
  page: number,
  total: number,
  { ids, pagination }: { ids: string[]; pagination: PageInfo },
): Draft {
  const { t } = model.translator;
  const base = urls.author(author.slug);
  const trail = [home(model), { name: t('authors.heading'), href: urls.authors() }, { name: author.name, href: base }];
  return {
    kind: 'author',
    path,
    head: {
      title: pageTitle(model, author.meta_title, page),
      description: author.meta_description,
      canonical: path,
      ogType: 'profile',
      structuredData: [
        { type: 'person', person: { name: author.name, slug: author.slug, description: author.description } },
        { type: 'breadcrumbs', trail },
      ],
      alternates: [],
    },
    props: { name: author.name, bio: author.description, trail, articles: summariesOf(model, ids), pagination, total: page === 0 ? total : undefined },
  };
}

const INFO_ROUTES = [
  { id: 'about-us', path: urls.about() },
  { id: 'privacy-policy', path: urls.privacy() },
  { id: 'terms', path: urls.terms() },
] as const;

function* infoRoutes(model: SiteModel): Generator<Route> {
  const { settings, pages } = model.content;
  for (const route of INFO_ROUTES) {
    const page = pages.find((p) => p.id === route.id && p.ui === model.ui) ?? pages.find((p) => p.id === route.id && p.ui === 'en');
    if (!page) continue;
    yield {
      path: route.path,
      kind: 'info',
      owner: feltOwned(`the ${route.id} page`),
      draft: () => {
        const trail = [home(model), { name: page.title, href: route.path }];
        return {
          kind: 'info',
          path: route.path,
          head: {
            title: `${page.title} | ${settings.title}`,
            description: page.description,
            canonical: route.path,
            ogType: 'website',
            structuredData: [{ type: 'breadcrumbs', trail }],
            alternates: [],
          },
          props: { title: page.title, body: page.body, trail },
        };
      },
    };
  }
}

function searchRoute(model: SiteModel): Route {
  return { path: urls.search(), kind: 'search', owner: feltOwned('the search results page'), draft: () => searchPage(model) };
}

/** One static page for every query: the browser fills in the results, so it is not worth indexing. */
function searchPage(model: SiteModel): Draft {
  const { t } = model.translator;
  const { settings } = model.content;
  return {
    kind: 'search',
    path: urls.search(),
    head: {
      title: t('searchPage.title', { site: settings.title }),
      description: t('searchPage.description', { site: settings.title }),
      canonical: urls.search(),
      ogType: 'website',
      structuredData: [],
      alternates: [],
      noindex: true,
    },
    props: {
      heading: t('searchPage.heading'),
      noScript: t('searchPage.noScript'),
      sitemap: { title: t('searchPage.sitemap'), href: urls.sitemap() },
      client: { resultsFor: t('searchPage.resultsFor'), prompt: t('searchPage.prompt'), submit: t('searchPage.submit') },
    },
  };
}

function sitemapRoute(model: SiteModel): Route {
  return { path: urls.sitemap(), kind: 'sitemap', owner: feltOwned('the HTML sitemap'), draft: () => sitemapPage(model) };
}

function sitemapPage(model: SiteModel): Draft {
  const { t, pick } = model.translator;
  const { settings, categories } = model.content;
  return {
    kind: 'sitemap',
    path: urls.sitemap(),
    head: {
      title: t('sitemap.title', { site: settings.title }),
      description: t('sitemap.description', { site: settings.title }),
      canonical: urls.sitemap(),
      ogType: 'website',
      structuredData: [],
      alternates: [],
    },
    props: {
      sections: categories.map((category) => ({
        title: pick(category.title),
        href: urls.category(category.slug),
        children: category.children.map((child) => ({
          title: pick(child.title),
          href: urls.subcategory(category.slug, child.slug),
          count: model.index.bySubcategory.get(subcategoryKey(category.key, child.key))?.length ?? 0,
        })),
      })),
      info: [
        { title: t('footer.about'), href: urls.about() },
        { title: t('footer.privacy'), href: urls.privacy() },
        { title: t('footer.terms'), href: urls.terms() },
        { title: t('footer.authors'), href: urls.authors() },
        { title: t('footer.sitemapXml'), href: urls.sitemapXml() },
        { title: t('footer.rss'), href: urls.feed() },
      ],
      // The whole archive is reachable through the category pages; the sitemap lists the newest.
      recent: model.articles.slice(0, 100).map((a) => ({ title: a.title, href: urls.article(a.slug) })),
    },
  };
}

/**
 * The 404 and 500 pages. Their status codes keep them out of search indexes,
 * as they do every missing page (felt serve and felt deploy send them), so
 * they carry no robots meta; they have no canonical URL and are not in the sitemap.
 */
function errorRoute(model: SiteModel, kind: 'notFound' | 'serverError'): Route {
  const path = ERROR_PAGES[kind].path;
  return { path, kind, owner: feltOwned(`the ${path.slice(1)} page`), draft: () => errorPage(model, kind, path) };
}

function errorPage(model: SiteModel, kind: 'notFound' | 'serverError', path: string): Draft {
  const { t } = model.translator;
  const site = model.content.settings.title;
  return {
    kind,
    path,
    head: { title: t(`${kind}.title`, { site }), description: t(`${kind}.description`), ogType: 'website', structuredData: [], alternates: [] },
    props: {},
  };
}
