/**
 * What a listing shows of an article. Computed from frontmatter and a word
 * count, without rendering the markdown, so listings never wait on bodies.
 */
import type { Article, CategoryNode } from '../../shared/types.ts';
import { readingMinutes } from '../render/markdown.ts';
import type { Placement } from './categoryIndex.ts';
import { slugify } from '../../shared/names.ts';
import { urls } from './urls.ts';

export interface ArticleSummary {
  slug: string;
  title: string;
  description: string;
  author: string;
  authorSlug: string;
  date: string;
  updated?: string;
  minutes: number;
  category?: { title: string; href: string };
  /** Only in `felt preview`: what publishing would add ("new") or replace ("changed"). */
  draft?: 'new' | 'changed';
  /** The generated cover's address (site/pictures/drawnCovers.ts); none when the cover is the provider's picture. */
  cover?: string;
}

/**
 * Makes summaries for one model. Every summary of a category's articles shows
 * the same link to it, so each category's is one object, made once: a new
 * object and href string a summary were some 80 B an article for the whole
 * build, by their sizes (not measured alone; README "Memory as the site grows").
 */
export function createSummarizer(authorSlugs: ReadonlyMap<string, string>, pick: (value: CategoryNode['title']) => string) {
  const categoryLinks = new Map<CategoryNode, NonNullable<ArticleSummary['category']>>();
  const categoryLink = (category: CategoryNode) => {
    let link = categoryLinks.get(category);
    if (!link) categoryLinks.set(category, (link = { title: pick(category.title), href: urls.category(category.slug) }));
    return link;
  };
  return function summarize(
    article: Article,
    placements: readonly Placement[],
    /** The drawn cover's address; none when the article has a provider picture. */
    cover: string | undefined,
  ): ArticleSummary {
    const first = placements[0];
    return {
      slug: article.slug,
      title: article.title,
      description: article.description,
      author: article.author,
      authorSlug: authorSlugs.get(article.author) ?? slugify(article.author),
      date: article.date,
      updated: article.updated,
      // Minutes, not words: an edit that leaves the reading time alone leaves every listing unchanged.
      minutes: readingMinutes(article.words),
      category: first ? categoryLink(first.category) : undefined,
      // Absent outside a preview, so production page data stays as it was.
      ...(article.draft ? { draft: article.draft } : {}),
      ...(cover === undefined ? {} : { cover }),
    };
  };
}
