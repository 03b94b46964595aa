/**
 * Everything derived from the content for one site build (one content
 * locale, one display locale): the category index, article summaries,
 * author lookups, translations and related articles. Built once, read by
 * every page.
 */
import { DEFAULT_UI, createTranslator, type Messages, type Translator } from '../i18n/translator.ts';
import type { Article, Author, ContentLocale, SiteContent, UiLocale } from '../../shared/types.ts';
import { CONTENT_LOCALES } from '../../shared/types.ts';
import { buildCategoryIndex, type CategoryIndex } from './categoryIndex.ts';
import { createSummarizer, type ArticleSummary } from './summaries.ts';
import type { ProviderPicture } from '../pictures/providerPictures.ts';
import { coverVariant, coverVariants, ownCover, subcategoryCover, type DrawnCover } from '../pictures/drawnCovers.ts';

export interface Translation {
  locale: ContentLocale;
  slug: string;
  title: string;
}

export interface SiteModel {
  content: SiteContent;
  locale: ContentLocale;
  ui: UiLocale;
  translator: Translator;
  /** This locale's articles, newest first. */
  articles: Article[];
  byId: Map<string, Article>;
  /** What a card shows of an article, made when first asked for: a rebuild asks for the few its changed pages list. */
  summaries: { get(id: string): ArticleSummary | undefined };
  /** The drawn cover an article shows unless it has a provider picture (site/pictures/drawnCovers.ts). */
  coverOf(article: Article): DrawnCover;
  index: CategoryIndex;
  authorBySlug: Map<string, Author>;
  authorByName: Map<string, Author>;
  /** Article ids per author name, newest first. */
  articlesByAuthor: Map<string, string[]>;
  /** Articles of every locale sharing a translationKey. */
  translations: Map<string, Translation[]>;
  /** Build time, for the copyright year and feeds. */
  now: Date;
  /** The model provider's pictures of this locale's articles, by slug (site/pictures/providerPictures.ts). */
  pictures: ReadonlyMap<string, ProviderPicture>;
}

export interface ModelOptions {
  locale?: ContentLocale;
  ui?: UiLocale;
  messages: Record<UiLocale, Messages>;
  now?: Date;
  pictures?: ReadonlyMap<string, ProviderPicture>;
}

/** Article summaries remembered at most (buildSiteModel), as the card tokens are (routes/articlePages.ts). */
const SUMMARIES_REMEMBERED = 8192;

export function buildSiteModel(content: SiteContent, options: ModelOptions): SiteModel {
  const locale = options.locale ?? content.settings.locale;
  const ui = options.ui ?? DEFAULT_UI[locale];
  const translator = createTranslator(ui, options.messages[ui], options.messages.en);
  const articles = content.articles[locale];
  const index = buildCategoryIndex(articles, content.categories);
  const authorSlugs = new Map(content.authors.map((a) => [a.name, a.slug]));
  const pictures = options.pictures ?? new Map<string, ProviderPicture>();
  // Filled in a loop: no pair array per article for the collector.
  const byId = new Map<string, Article>();
  for (const article of articles) byId.set(article.id, article);
  const coverOf = drawnCovers(index, coverVariants(content.settings.home.pageSize));
  // Summaries made are remembered a while, not for the whole build: the pages that show an article's summary (its
  // neighbours' related lists, its listings) are mostly made near one another in the build's walk, and one object per
  // article kept to the end was 150-230 B an article on the build thread's heap (README, "Memory as the site grows",
  // step 5). One made again costs its making (17,000 more of 70,000 asked for in a cold 10,000-article build) and, in
  // a build that keys the page showing it, its digest again (build/pageKey.ts digests each object once).
  const made = new Map<string, ArticleSummary>();
  const summarize = createSummarizer(authorSlugs, translator.pick);
  const summaries = {
    get(id: string): ArticleSummary | undefined {
      let summary = made.get(id);
      const article = summary ? undefined : byId.get(id);
      if (article) {
        const cover = pictures.has(article.slug) ? undefined : coverOf(article).path;
        if (made.size >= SUMMARIES_REMEMBERED) made.clear();
        made.set(id, (summary = summarize(article, index.placementsOf(article), cover)));
      }
      return summary;
    },
  };
  const articlesByAuthor = new Map<string, string[]>();
  for (const article of articles) {
    const list = articlesByAuthor.get(article.author);
    if (list) list.push(article.id);
    else articlesByAuthor.set(article.author, [article.id]);
  }
  return {
    content,
    locale,
    ui,
    translator,
    articles,
    byId,
    summaries,
    coverOf,
    index,
    authorBySlug: new Map(content.authors.map((a) => [a.slug, a])),
    authorByName: new Map(content.authors.map((a) => [a.name, a])),
    articlesByAuthor,
    translations: collectTranslations(content),
    now: options.now ?? new Date(),
    pictures,
  };
}

/**
 * Each translationKey's articles, one per locale: of a locale's articles sharing a key, the oldest (the list is
 * newest first), and the others belong to no group (`felt check` warns of them: crossCheck.ts, sharedTranslationKeys).
 */
function collectTranslations(content: SiteContent): Map<string, Translation[]> {
  const map = new Map<string, Translation[]>();
  for (const locale of CONTENT_LOCALES) {
    const articles = content.articles[locale];
    for (let i = articles.length - 1; i >= 0; i--) {
      const article = articles[i]!;
      if (!article.translationKey) continue;
      const list = map.get(article.translationKey) ?? [];
      if (list.some((member) => member.locale === locale)) continue;
      list.push({ locale, slug: article.slug, title: article.title });
      map.set(article.translationKey, list);
    }
  }
  return map;
}

/**
 * Each article's drawn cover: its variant of its first subcategory's covers, by its place there. One object per
 * variant, made once, so every summary showing it holds the same path string.
 */
function drawnCovers(index: CategoryIndex, variantCount: number): (article: Article) => DrawnCover {
  const variants = new Map<readonly string[], DrawnCover[]>();
  return (article) => {
    const placement = index.placementsOf(article)[0];
    const ids = index.listsOf(article).subcategories[0];
    if (!placement || !ids) return ownCover(article.slug);
    const variant = coverVariant(positionOf(ids, article.id), ids.length, variantCount);
    let covers = variants.get(ids);
    if (!covers) variants.set(ids, (covers = []));
    return (covers[variant] ??= subcategoryCover(placement, variant));
  };
}

/** How many related articles a page shows; they are drawn from at most this many places on either side of it. */
export const RELATED_COUNT = 4;

/**
 * Up to `count` articles filed with this one: its neighbours in time in the
 * same subcategory, older ones first, then in the same category. Neighbours,
 * not the newest: an article's related list then stays the same when new
 * articles arrive, so a nightly rebuild does not re-render the whole archive.
 */
export function relatedArticles(model: SiteModel, article: Article, count = RELATED_COUNT): ArticleSummary[] {
  return relatedIds(model, article, count).map((id) => model.summaries.get(id)!);
}

/** The ids of relatedArticles(), for what depends on which articles they are. */
export function relatedIds(model: SiteModel, article: Article, count = RELATED_COUNT): string[] {
  const picked: string[] = [];
  // Older neighbours first (the next `count` in the list), then newer ones, nearest first: in the article's
  // subcategories, then its categories. No copies of the lists, no key strings, no closure per call: a rebuild asks
  // this of every article (its page's inputs).
  const { subcategories, categories } = model.index.listsOf(article);
  for (const ids of subcategories) if (!pickNeighbours(ids, article.id, picked, count)) return picked;
  for (const ids of categories) if (!pickNeighbours(ids, article.id, picked, count)) return picked;
  return picked;
}

/** Adds the article's neighbours in one listing to `picked`; false once `count` are picked. */
function pickNeighbours(ids: string[], id: string, picked: string[], count: number): boolean {
  const at = positionOf(ids, id);
  const last = Math.min(ids.length, at + 1 + count);
  for (let i = at + 1; i < last; i++) if (!pickOne(ids[i]!, id, picked, count)) return false;
  const first = Math.max(0, at - count);
  for (let i = at - 1; i >= first; i--) if (!pickOne(ids[i]!, id, picked, count)) return false;
  return true;
}

function pickOne(candidate: string, self: string, picked: string[], count: number): boolean {
  if (picked.length >= count) return false;
  if (candidate !== self && !picked.includes(candidate)) picked.push(candidate);
  return true;
}

/** Where each article stands in a listing, built once per listing (a model's listings are never changed once made). */
const positions = new WeakMap<readonly string[], Map<string, number>>();
/** How many times a listing was searched before its positions were built. */
const searched = new WeakMap<readonly string[], number>();
/**
 * Searches a listing this many times before building its positions: a rebuild after a few new articles asks for the
 * places of a few hundred articles, mostly near the front of listings of up to 100,000 (build/additions.ts), where a
 * full rebuild asks for every article's place in each of its listings.
 */
const SEARCHES_BEFORE_MAP = 256;

export function positionOf(ids: readonly string[], id: string): number {
  let map = positions.get(ids);
  if (!map) {
    const times = searched.get(ids) ?? 0;
    if (times < SEARCHES_BEFORE_MAP) {
      searched.set(ids, times + 1);
      return ids.indexOf(id);
    }
    // Filled in a loop: a pair array per article was the collector's to clear, listing after listing.
    map = new Map();
    for (let i = 0; i < ids.length; i++) map.set(ids[i]!, i);
    positions.set(ids, map);
  }
  return map.get(id) ?? -1;
}
