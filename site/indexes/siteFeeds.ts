/**
 * The site's feeds from its model: one for the whole site and one per
 * category, each with the newest articles (feeds.ts writes the RSS).
 */
import { contentLangTag } from '../i18n/translator.ts';
import { plainName } from '../../shared/names.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import { absoluteUrl } from '../render/seo.ts';
import { FEED_SIZE, renderRss, type FeedItem } from './feeds.ts';

export function* siteFeeds(model: SiteModel): Generator<{ path: string; content: string }> {
  const { t, pick } = model.translator;
  const { settings, categories } = model.content;
  const language = contentLangTag(model.locale);
  const item = (id: string): FeedItem => {
    const article = model.byId.get(id)!;
    const placements = model.index.placementsOf(article);
    return {
      title: article.title,
      url: absoluteUrl(settings, urls.article(article.slug)),
      description: article.description,
      date: article.date,
      author: article.author,
      categories: [...new Set(placements.map((p) => plainName(pick(p.category.title))))],
    };
  };
  const base = { siteUrl: settings.url, language, now: model.now };
  yield {
    path: 'feed.xml',
    content: renderRss({
      ...base,
      title: t('feed.title', { site: settings.title }),
      description: pick(settings.tagline),
      feedUrl: absoluteUrl(settings, urls.feed()),
      items: model.articles.slice(0, FEED_SIZE).map((a) => item(a.id)),
    }),
  };
  for (const category of categories) {
    const ids = (model.index.byCategory.get(category.key) ?? []).slice(0, FEED_SIZE);
    yield {
      path: urls.categoryFeed(category.slug).slice(1),
      content: renderRss({
        ...base,
        title: t('feed.categoryTitle', { site: settings.title, category: plainName(pick(category.title)) }),
        description: pick(category.description),
        feedUrl: absoluteUrl(settings, urls.categoryFeed(category.slug)),
        items: ids.map(item),
      }),
    };
  }
}
