/**
 * Checks that need more than one file: authors exist, at least one category
 * is known, no two articles or authors share a slug (naming every party).
 * Whether a slug's route collides with another route or with the build's own
 * files is found from the routes themselves (site/routes/collisions.ts).
 */
import type { Problem } from '../../shared/errors.ts';
import type { Article, Author, CategoryNode } from '../../shared/types.ts';
import { isPlaceable } from '../model/categoryIndex.ts';

/** What checks across files read of an article: an article refused for other fields has those of these that are valid. */
export type ArticleReferences = Pick<Article, 'file'> & Partial<Pick<Article, 'slug' | 'author' | 'entities'>>;

export function checkArticles(articles: ArticleReferences[], authors: Author[], categories: CategoryNode[]): Problem[] {
  const problems: Problem[] = [];
  const authorNames = new Set(authors.map((a) => a.name));
  // One article per slug as a rule (no array for each of 100,000 articles); a list only where slugs repeat.
  const bySlug = new Map<string, ArticleReferences | ArticleReferences[]>();
  // Entity lists from the article cache are shared by the articles filed alike: each is checked once.
  const placeable = new Map<ArticleReferences['entities'], boolean>();
  const isFiled = (entities: NonNullable<ArticleReferences['entities']>) => {
    let known = placeable.get(entities);
    if (known === undefined) placeable.set(entities, (known = isPlaceable({ entities }, categories)));
    return known;
  };
  for (const article of articles) {
    if (article.author !== undefined && !authorNames.has(article.author)) {
      problems.push({ file: article.file, field: 'author', severity: 'error', message: `author "${article.author}" is not in authors.json`, hint: 'use the exact name of an author in content/authors.json, or add the author there' });
    }
    if (article.entities && !isFiled(article.entities)) {
      const given = article.entities.map((e) => `"${e.category}"`).join(', ');
      problems.push({ file: article.file, field: 'entities', severity: 'error', message: `no known category among ${given}`, hint: `use one of: ${categories.map((c) => c.key).join(', ')}` });
    }
    if (article.slug === undefined) continue;
    const same = bySlug.get(article.slug);
    if (same === undefined) bySlug.set(article.slug, article);
    else if (Array.isArray(same)) same.push(article);
    else bySlug.set(article.slug, [same, article]);
  }
  for (const [slug, group] of bySlug) {
    if (!Array.isArray(group)) continue;
    // Sorted: articles are parsed in parallel, and two with one slug and one date tie in any order.
    const files = group.map((a) => a.file).sort();
    for (const article of group) {
      problems.push({ file: article.file, field: 'slug', severity: 'error', message: `slug "${slug}" is used by ${files.length} articles: ${files.join(', ')}`, hint: 'give each article its own slug' });
    }
  }
  return problems;
}

export function checkAuthors(authors: Author[], file: string): Problem[] {
  return duplicates(authors.map((a) => a.slug)).map((slug) => ({
    file,
    field: 'slug',
    severity: 'error' as const,
    message: `author slug "${slug}" is used by ${authors.filter((a) => a.slug === slug).map((a) => `"${a.name}"`).join(' and ')}`,
    hint: 'give each author a slug of their own',
  }));
}

export function checkCategories(categories: CategoryNode[], file: string): Problem[] {
  const problems: Problem[] = [];
  const topSlugs = categories.map((c) => c.slug);
  for (const slug of duplicates(topSlugs)) {
    problems.push({ file, field: 'slug', severity: 'error', message: `category slug "${slug}" is used twice`, hint: 'give each category its own slug' });
  }
  for (const category of categories) {
    if (!category.children.some((c) => c.key === 'other')) {
      problems.push({ file, field: `${category.key}.children`, severity: 'error', message: 'has no "other" child', hint: 'add a catch-all child "other" with a slug of its own' });
    }
    for (const slug of duplicates(category.children.map((c) => c.slug))) {
      problems.push({ file, field: `${category.key}.children`, severity: 'error', message: `child slug "${slug}" is used twice`, hint: 'give each child its own slug' });
    }
  }
  return problems;
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const value of values) (seen.has(value) ? repeated : seen).add(value);
  return [...repeated];
}
