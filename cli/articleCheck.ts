/**
 * An article object from a bucket, checked as `felt check` checks an article
 * file, before publish promotes it or pull writes it into content/: the
 * file's own checks (parseArticleBytes: UTF-8, frontmatter, fields, slug and
 * locale against the name) and the checks against the project (the author is
 * in authors.json, a category is known: checkArticles). Only the checks that
 * need every article at once (two articles with one slug) are left to
 * `felt check`.
 */
import type { Problem } from '../shared/errors.ts';
import type { ContentLocale } from '../shared/types.ts';
import { checkArticles } from '../site/content/crossCheck.ts';
import { parseArticleBytes } from '../site/content/parseArticle.ts';
import type { Project } from './project.ts';

/** The errors that keep this object out of content/ and production; none when it is a valid article. */
export function articleObjectProblems(bytes: Buffer, name: string, locale: ContentLocale, project: Pick<Project, 'authors' | 'categories'>): Problem[] {
  const { article, problems } = parseArticleBytes(bytes, name, locale);
  const errors = problems.filter((p) => p.severity === 'error');
  if (article && !errors.length) errors.push(...checkArticles([article], project.authors, project.categories));
  return errors;
}

/** Problems in one line: "field: line 3: message; message". */
export function describeProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.field ? `${p.field}: ` : ''}${p.line ? `line ${p.line}: ` : ''}${p.message}`).join('; ');
}
