/**
 * Checks that need more than one file: authors exist, at least one category
 * is known, no two articles or authors share a slug (naming every party),
 * and no slug collides with a route of the site.
 */
import type { Problem } from '../../shared/errors.ts';
import type { Article, Author, CategoryNode } from '../../shared/types.ts';
import { placeArticle } from '../model/categoryIndex.ts';

export function checkArticles(articles: Article[], authors: Author[], categories: CategoryNode[]): Problem[] {
  const problems: Problem[] = [];
  const authorNames = new Set(authors.map((a) => a.name));
  const bySlug = new Map<string, Article[]>();
  for (const article of articles) {
    if (!authorNames.has(article.author)) {
      problems.push({ file: article.file, field: 'author', severity: 'error', message: `author "${article.author}" is not in authors.json`, hint: 'use the exact name of an author in content/authors.json, or add the author there' });
    }
    if (placeArticle(article, categories).length === 0) {
      const given = article.entities.map((e) => `"${e.category}"`).join(', ');
      problems.push({ file: article.file, field: 'entities', severity: 'error', message: `no known category among ${given}`, hint: `use one of: ${categories.map((c) => c.key).join(', ')}` });
    }
    const same = bySlug.get(article.slug);
    if (same) same.push(article);
    else bySlug.set(article.slug, [article]);
  }
  for (const [slug, group] of bySlug) {
    if (group.length < 2) continue;
    const files = group.map((a) => a.file);
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

/** Category and child slugs share the top level of the URL space with the site's own routes. */
const RESERVED_SLUGS = new Set(['articles', 'authors', 'info', 'privacy-policy', 'terms', 'sitemap', 'page-data', 'slice-data', 'assets', 'icons', 'feeds', 'page']);

export function checkCategories(categories: CategoryNode[], file: string): Problem[] {
  const problems: Problem[] = [];
  const topSlugs = categories.map((c) => c.slug);
  for (const slug of duplicates(topSlugs)) {
    problems.push({ file, field: 'slug', severity: 'error', message: `category slug "${slug}" is used twice`, hint: 'give each category its own slug' });
  }
  for (const category of categories) {
    if (RESERVED_SLUGS.has(category.slug)) {
      problems.push({ file, field: `${category.key}.slug`, severity: 'error', message: `category slug "${category.slug}" is a route of the site`, hint: 'choose another slug' });
    }
    if (!category.children.some((c) => c.key === 'other')) {
      problems.push({ file, field: `${category.key}.children`, severity: 'error', message: 'has no "other" child', hint: 'add a catch-all child "other" with a slug of its own' });
    }
    for (const slug of duplicates(category.children.map((c) => c.slug).concat(['page']))) {
      problems.push({ file, field: `${category.key}.children`, severity: 'error', message: `child slug "${slug}" is used twice or is reserved`, hint: 'give each child its own slug' });
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
