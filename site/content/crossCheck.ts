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

/**
 * The files that share a value (a slug, a translationKey), for the values that more than one file has. One file per
 * value as a rule (no array for each of 100,000 articles); a list only where values repeat.
 */
class Repeats {
  private readonly byValue = new Map<string, string | string[]>();

  add(value: string | undefined, file: string): void {
    if (value === undefined) return;
    const same = this.byValue.get(value);
    if (same === undefined) this.byValue.set(value, file);
    else if (Array.isArray(same)) same.push(file);
    else this.byValue.set(value, [same, file]);
  }

  /**
   * Each repeated value with its files, sorted (articles are parsed in parallel, so they come in any order), or in
   * the order they were added.
   */
  *repeated(sorted = true): Generator<[value: string, files: string[]]> {
    for (const [value, files] of this.byValue) if (Array.isArray(files)) yield [value, sorted ? [...files].sort() : files];
  }
}

export function checkArticles(articles: ArticleReferences[], authors: Author[], categories: CategoryNode[]): Problem[] {
  const problems: Problem[] = [];
  const authorNames = new Set(authors.map((a) => a.name));
  const slugs = new Repeats();
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
    slugs.add(article.slug, article.file);
  }
  for (const [slug, files] of slugs.repeated()) {
    for (const file of files) {
      problems.push({ file, field: 'slug', severity: 'error', message: `slug "${slug}" is used by ${files.length} articles: ${files.join(', ')}`, hint: 'give each article its own slug' });
    }
  }
  return problems;
}

/**
 * Articles of one locale sharing a translationKey: a warning each. The site links the oldest of them as that
 * locale's translation and the others to none (siteModel.ts, collectTranslations), where each was another hreflang
 * alternate for one language, which search engines drop as conflicting, and a newer article could put itself on the
 * pages of an older one's translations. Not an error: one such article would stop every build of the site.
 */
export function sharedTranslationKeys(articles: readonly Article[]): Problem[] {
  const keys = new Repeats();
  // Oldest first, so each key's first file is the one the site links.
  for (let i = articles.length - 1; i >= 0; i--) keys.add(articles[i]!.translationKey, articles[i]!.file);
  const problems: Problem[] = [];
  for (const [key, files] of keys.repeated(false)) {
    const [linked, ...others] = files;
    for (const file of files) {
      problems.push({
        file,
        field: 'translationKey',
        severity: 'warning',
        message: `translationKey "${key}" is used by ${files.length} articles of one locale: ${files.join(', ')}; the oldest, ${linked}, is linked as its translation, ${others.length === 1 ? 'the other' : 'the others'} to none`,
        hint: 'a translationKey links one article per locale; give the others a key of their own, or remove it',
      });
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
