/**
 * Everything derived from the content for one site build (one content
 * locale, one display locale): the category index, article summaries,
 * author lookups, translations and related articles. Built once, read by
 * every page.
 */
import { DEFAULT_UI, createTranslator, type Messages, type Translator } from '../core/i18n.ts';
import type { Article, Author, ContentLocale, SiteContent, UiLocale } from '../core/types.ts';
import { CONTENT_LOCALES } from '../core/types.ts';
import { buildCategoryIndex, subcategoryKey, type CategoryIndex } from './categoryIndex.ts';
import { summarize, type ArticleSummary } from './summaries.ts';

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
  summaries: Map<string, ArticleSummary>;
  index: CategoryIndex;
  authorBySlug: Map<string, Author>;
  authorByName: Map<string, Author>;
  /** Article ids per author name, newest first. */
  articlesByAuthor: Map<string, string[]>;
  /** Articles of every locale sharing a translationKey. */
  translations: Map<string, Translation[]>;
  /** Build time, for the copyright year and feeds. */
  now: Date;
}

export interface ModelOptions {
  locale?: ContentLocale;
  ui?: UiLocale;
  messages: Record<UiLocale, Messages>;
  now?: Date;
}

export function buildSiteModel(content: SiteContent, options: ModelOptions): SiteModel {
  const locale = options.locale ?? content.settings.locale;
  const ui = options.ui ?? DEFAULT_UI[locale];
  const translator = createTranslator(ui, options.messages[ui], options.messages.en);
  const articles = content.articles[locale];
  const index = buildCategoryIndex(articles, content.categories);
  const authorSlugs = new Map(content.authors.map((a) => [a.name, a.slug]));
  const summaries = new Map<string, ArticleSummary>();
  const articlesByAuthor = new Map<string, string[]>();
  for (const article of articles) {
    summaries.set(article.id, summarize(article, index.placements.get(article.id) ?? [], authorSlugs, translator.pick));
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
    byId: new Map(articles.map((a) => [a.id, a])),
    summaries,
    index,
    authorBySlug: new Map(content.authors.map((a) => [a.slug, a])),
    authorByName: new Map(content.authors.map((a) => [a.name, a])),
    articlesByAuthor,
    translations: collectTranslations(content),
    now: options.now ?? new Date(),
  };
}

function collectTranslations(content: SiteContent): Map<string, Translation[]> {
  const map = new Map<string, Translation[]>();
  for (const locale of CONTENT_LOCALES) {
    for (const article of content.articles[locale]) {
      if (!article.translationKey) continue;
      const list = map.get(article.translationKey) ?? [];
      list.push({ locale, slug: article.slug, title: article.title });
      map.set(article.translationKey, list);
    }
  }
  return map;
}

/** Up to `count` articles filed with this one: same subcategory first, then same category. */
export function relatedArticles(model: SiteModel, article: Article, count = 4): ArticleSummary[] {
  const picked: string[] = [];
  const consider = (ids: string[] | undefined) => {
    // Lists are newest first; looking a little past `count` is enough to skip this article and repeats.
    for (const id of ids?.slice(0, count + 8) ?? []) {
      if (picked.length >= count) return;
      if (id !== article.id && !picked.includes(id)) picked.push(id);
    }
  };
  const placements = model.index.placements.get(article.id) ?? [];
  for (const p of placements) consider(model.index.bySubcategory.get(subcategoryKey(p.category.key, p.subcategory.key)));
  for (const p of placements) consider(model.index.byCategory.get(p.category.key));
  return picked.map((id) => model.summaries.get(id)!);
}
