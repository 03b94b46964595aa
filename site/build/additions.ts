/**
 * A rebuild after articles were only added: the nightly case. Which pages can
 * the new articles change? Their own; the pages whose related articles are
 * drawn from a listing they joined (their neighbours within RELATED_COUNT
 * places: siteModel.ts relatedIds); their translations' pages; the pages of
 * the newer articles of their subcategories, whose drawn covers move, with
 * those articles' neighbours and listings; and, in each
 * listing they joined, its front page and the archive pages from the oldest
 * one that holds a new article or links to the newest archive pages
 * (model/pagination.ts: older archive pages never change). Every other page
 * was made from the same inputs as last time: a rebuild keeps it without
 * working out its inputs, which at 100,000 articles was most of a rebuild's
 * time (the digests of 100,000 article pages and 18,000 listing pages).
 *
 * "Only added" is known by walking every content locale's articles, newest
 * first, along the slugs and tokens the previous build recorded in the same
 * order (BuildManifest.articles): each article is the next one recorded, with
 * the same token, or new. Nothing is looked up and no string is made for the
 * articles the site had; the new ones are spliced into the record. A changed or removed article (its place in the listings
 * may have moved), a picture added to or taken from an article it had,
 * changed authors or ads, or a preview: the build checks every page as before.
 */
import { CONTENT_LOCALES, type Article } from '../../shared/types.ts';
import { RELATED_COUNT, positionOf, type SiteModel } from '../model/siteModel.ts';
import { planListing } from '../model/pagination.ts';
import { urls } from '../model/urls.ts';
import { buildWideInputs } from '../routes/articlePages.ts';
import { digest } from '../../shared/digest.ts';
import { FIELD_END, type BuildManifest, type RecordedArticles } from './buildCache.ts';

/** Where a listing page stands: the listing's articles (newest first) and its number (0: the front page). */
export interface ListingPlace {
  ids: readonly string[];
  page: number;
}

export interface AdditionPlan {
  /** The model locale's new articles. */
  added: Article[];
  /**
   * Whether the drawn covers of articles the site had moved (drawnCovers.ts): a cover file may then be shown by no
   * article any more, so the picture stage looks at every article, not only the new ones.
   */
  coversMoved: boolean;
  /** The manifest's articles for this build: the previous build's and the new ones. */
  articles: BuildManifest['articles'];
  /** Whether a page may have changed: false means it was made from the same inputs as last time. */
  mayChange(page: { kind: string; path: string; listing?: ListingPlace }): boolean;
}

/** The characters of a file's digest an article is recorded by: 64 bits. */
const TOKEN_LENGTH = 16;

/**
 * What an article is recorded by: the first 64 bits of its file's digest (which holds all of it, slug and
 * translation key included), as the card tokens take it, and the digest of its provider picture if it has one (the
 * model locale's pictures: `pictures`). Its draft mark is in the plan key.
 */
function fileToken(article: Article, pictures?: SiteModel['pictures']): string {
  const picture = pictures?.get(article.slug);
  const file = article.digest.slice(0, TOKEN_LENGTH);
  return picture ? `${file}+${picture.digest}` : file;
}

/**
 * Whether the recorded token that starts at `at` in `tokens` (and runs to `end`) is fileToken(article, pictures),
 * without making either string: this runs for every article of every rebuild.
 */
function sameToken(tokens: string, at: number, end: number, article: Article, pictures: SiteModel['pictures'] | undefined): boolean {
  if (pictures?.has(article.slug)) return tokens.slice(at, end) === fileToken(article, pictures);
  if (end - at !== TOKEN_LENGTH) return false;
  for (let i = 0; i < TOKEN_LENGTH; i++) if (tokens.charCodeAt(at + i) !== article.digest.charCodeAt(i)) return false;
  return true;
}

/** The manifest's articles of a build that looked at every page: every article of every content locale, in order. */
export function recordedArticles(model: SiteModel): BuildManifest['articles'] {
  const recorded: BuildManifest['articles'] = new Map();
  for (const locale of CONTENT_LOCALES) {
    const pictures = locale === model.locale ? model.pictures : undefined;
    const articles = model.content.articles[locale];
    recorded.set(locale, {
      count: articles.length,
      slugs: articles.map((a) => a.slug + FIELD_END).join(''),
      tokens: articles.map((a) => fileToken(a, pictures) + FIELD_END).join(''),
    });
  }
  return recorded;
}

/**
 * Walks a locale's articles (newest first) along the previous build's record of them, in the same order: the
 * articles that are not the next one recorded are new, and are spliced into the record where they stand. Undefined
 * when an article recorded has another token now (it changed) or is not met in its place (it changed its date or
 * went): then every page is checked.
 */
function walkRecord(record: RecordedArticles, articles: readonly Article[], pictures: SiteModel['pictures'] | undefined) {
  const { slugs, tokens } = record;
  const added: Article[] = [];
  const slugParts: string[] = [];
  const tokenParts: string[] = [];
  let slugAt = 0;
  let tokenAt = 0;
  let slugFrom = 0;
  let tokenFrom = 0;
  let found = 0;
  for (const article of articles) {
    const { slug } = article;
    const next = slugAt < slugs.length && slugs.startsWith(slug, slugAt) && slugs.charCodeAt(slugAt + slug.length) === 0;
    if (next) {
      const tokenEnd = tokens.indexOf(FIELD_END, tokenAt);
      if (tokenEnd < 0 || !sameToken(tokens, tokenAt, tokenEnd, article, pictures)) return { changed: slug };
      slugAt += slug.length + 1;
      tokenAt = tokenEnd + 1;
      found++;
      continue;
    }
    added.push(article);
    slugParts.push(slugs.slice(slugFrom, slugAt), slug + FIELD_END);
    tokenParts.push(tokens.slice(tokenFrom, tokenAt), fileToken(article, pictures) + FIELD_END);
    slugFrom = slugAt;
    tokenFrom = tokenAt;
  }
  if (found !== record.count) return { gone: record.count - found };
  if (added.length === 0) return { added, record };
  slugParts.push(slugs.slice(slugFrom));
  tokenParts.push(tokens.slice(tokenFrom));
  return { added, record: { count: record.count + added.length, slugs: slugParts.join(''), tokens: tokenParts.join('') } };
}

/**
 * What every page with inputs reads besides its articles (their files and pictures) and the template key: the
 * build-wide inputs (authors, ads, locale) and whether the build is a preview (its drafts' marks): a plan is made only
 * when these are what the previous build had.
 */
export function planKey(model: SiteModel, preview: boolean): string {
  return digest(`${buildWideInputs(model)}\n${preview ? 'preview' : 'site'}`);
}

/** The plan of a rebuild after additions only, or why every page must be checked. */
export function planAdditions(model: SiteModel, previous: BuildManifest, key: string, preview: boolean): AdditionPlan | { fullCheck: string } {
  if (preview) return { fullCheck: 'a preview' };
  if (previous.planKey !== key) return { fullCheck: 'authors, ads or locale changed' };
  const added: Article[] = [];
  const addedElsewhere: Article[] = [];
  const articles: BuildManifest['articles'] = new Map();
  for (const locale of CONTENT_LOCALES) {
    const before = previous.articles.get(locale);
    if (!before) return { fullCheck: `no articles recorded for ${locale}` };
    const own = locale === model.locale;
    const walked = walkRecord(before, model.content.articles[locale], own ? model.pictures : undefined);
    if ('changed' in walked) return { fullCheck: `${locale}/${walked.changed} changed` };
    if ('gone' in walked) return { fullCheck: `${walked.gone} ${locale} articles changed their place or went` };
    (own ? added : addedElsewhere).push(...walked.added);
    articles.set(locale, walked.record);
  }

  const articlePaths = new Set<string>();
  const lookAt = (id: string) => articlePaths.add(urls.article(model.byId.get(id)!.slug));
  /** Per listing a new or moved article is in: the oldest archive page that may have changed (the front page always may). */
  const fromPage = new Map<readonly string[], number>();
  const size = model.content.settings.home.pageSize;
  /** Per listing: the places (newest first) of the new articles in it, and of the articles whose cover moved. */
  const newIn = new Map<readonly string[], number[]>();
  const movedIn = new Map<readonly string[], number>();
  const subcategoryLists = new Set<readonly string[]>();
  /** The listings an article is in: its pages show it on these (as a card), and its related articles come from all but its author's. */
  const listingsOf = (article: Article) => {
    const { subcategories, categories } = model.index.listsOf(article);
    const author = model.articlesByAuthor.get(article.author);
    return { subcategories, related: [...subcategories, ...categories], author };
  };
  const lookAround = (ids: readonly string[], at: number) => {
    for (let i = Math.max(0, at - RELATED_COUNT); i <= Math.min(ids.length - 1, at + RELATED_COUNT); i++) lookAt(ids[i]!);
  };
  for (const article of added) {
    articlePaths.add(urls.article(article.slug));
    const { subcategories, related, author } = listingsOf(article);
    for (const ids of subcategories) subcategoryLists.add(ids);
    for (const ids of [...related, ...(author ? [author] : [])]) {
      const at = ids.indexOf(article.id);
      if (at < 0) continue;
      const positions = newIn.get(ids);
      if (positions) positions.push(at);
      else newIn.set(ids, [at]);
      // Related articles are drawn from the article's subcategories and categories, not from its author's list.
      if (ids !== author) lookAround(ids, at);
    }
  }
  // An article's drawn cover is its place in its first subcategory counted from the oldest (drawnCovers.ts): a new
  // one that lands among older ones there moves the cover of each newer one, on its page, on its neighbours' (their
  // related articles) and on the listing pages that hold it. Every article newer than it in any of its subcategories
  // counts as moved.
  const addedIds = new Set(added.map((article) => article.id));
  let coversMoved = false;
  for (const ids of subcategoryLists) {
    // Newest first: the new articles' places from 0 up to the oldest one's; every other article before it moved.
    const oldestAdded = Math.max(...newIn.get(ids)!);
    for (let i = 0; i < oldestAdded; i++) {
      const id = ids[i]!;
      if (addedIds.has(id)) continue;
      coversMoved = true;
      lookAt(id);
      const { related, author } = listingsOf(model.byId.get(id)!);
      for (const list of [...related, ...(author ? [author] : [])]) {
        const at = positionOf(list, id);
        if (at < 0) continue;
        movedIn.set(list, Math.max(movedIn.get(list) ?? 0, at));
        if (list !== author) lookAround(list, at);
      }
    }
  }
  for (const ids of new Set([...newIn.keys(), ...movedIn.keys()])) {
    // Archive page n holds the articles n·size-1 ... (n-1)·size places from the oldest, and links to pages up to
    // n + 2 (pagination.ts): it is as it was when no new or moved article lies among its places, and the listing
    // already had pages up to n + 2.
    const positions = newIn.get(ids) ?? [];
    const oldest = ids.length - 1 - Math.max(movedIn.get(ids) ?? 0, ...positions);
    const archivesBefore = planListing(ids.length - new Set(positions).size, size).archives;
    fromPage.set(ids, Math.max(1, Math.min(Math.floor(oldest / size), archivesBefore - 2) + 1));
  }
  const keys = new Set([...added, ...addedElsewhere].flatMap((a) => (a.translationKey ? [a.translationKey] : [])));
  if (keys.size) for (const article of model.articles) if (article.translationKey && keys.has(article.translationKey)) lookAt(article.id);

  return {
    added,
    coversMoved,
    articles,
    mayChange(page) {
      if (page.kind === 'article') return articlePaths.has(page.path);
      if (!page.listing) return true;
      const from = fromPage.get(page.listing.ids);
      return from !== undefined && (page.listing.page === 0 || page.listing.page >= from);
    },
  };
}
