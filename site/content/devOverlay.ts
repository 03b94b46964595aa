/**
 * `felt preview`'s content: production's articles (content/) with the dev
 * bucket's articles (content.dev/, see shared/contentOrigin.ts) laid over
 * them. A dev article production lacks is a draft "new", one production has
 * with other bytes a draft "changed"; one with the same bytes stays as
 * production's. Nothing is written: content/ is only read.
 */
import { ContentError, type Problem } from '../../shared/errors.ts';
import { CONTENT_LOCALES, type Article, type SiteContent } from '../../shared/types.ts';
import { checkArticles } from './crossCheck.ts';
import { loadArticles } from './loadContent.ts';
import { locateProblems } from './problemLines.ts';

export async function overlayDevArticles(content: SiteContent, devDir: string): Promise<SiteContent> {
  const problems: Problem[] = [];
  const articles = { ...content.articles };
  for (const locale of CONTENT_LOCALES) {
    const dev = await loadArticles(devDir, locale, problems);
    if (!dev.length) continue;
    problems.push(...checkArticles(dev, content.authors, content.categories));
    const merged = new Map(content.articles[locale].map((a) => [a.slug, a]));
    for (const article of dev) {
      const current = merged.get(article.slug);
      if (current?.digest === article.digest) continue;
      merged.set(article.slug, { ...article, draft: current ? 'changed' : 'new' });
    }
    // The same order as loadArticles: newest first, ties by slug.
    articles[locale] = [...merged.values()].sort(newestFirst);
  }
  if (problems.some((p) => p.severity === 'error')) throw new ContentError(await locateProblems(problems, devDir));
  return { ...content, articles };
}

function newestFirst(a: Article, b: Article): number {
  return a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

/** How many of a locale's articles came from each environment. */
export function countOrigins(articles: readonly Article[]): { production: number; dev: number } {
  const dev = articles.filter((a) => a.draft).length;
  return { production: articles.length - dev, dev };
}
