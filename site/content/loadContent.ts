/**
 * Reads a content folder into typed SiteContent. Every problem in every file
 * is collected; if any is an error the whole set is thrown as one
 * ContentError, so an operator fixes everything in one pass.
 */
import { statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { z } from 'zod';
import { ContentError, FeltError, type Problem } from '../../shared/errors.ts';
import { CONTENT_LOCALES, UI_LOCALES, type AdData, type Article, type Author, type CategoryNode, type ContentLocale, type InfoPage, type SiteContent, type SiteSettings } from '../../shared/types.ts';
import { feltCodeVersion } from '../build/codeVersion.ts';
import { ArticleCache } from './articleCache.ts';
import { checkArticles, checkAuthors, checkCategories } from './crossCheck.ts';
import { splitFrontmatter } from './frontmatter.ts';
import { MAX_ARTICLE_BYTES, parseArticleBytes } from './parseArticle.ts';
import { CONTENT_PARSE, adsSchema, authorsSchema, categoriesSchema, formatIssues, infoPageFrontmatterSchema, siteSettingsSchema } from './schemas.ts';

export const INFO_PAGE_IDS = ['about-us', 'privacy-policy', 'terms'] as const;

export interface LoadOptions {
  /** Only these content locales' articles are read (all by default). */
  locales?: readonly ContentLocale[];
  /** Where parsed articles are remembered between runs (see articleCache.ts); none by default. */
  cacheFile?: string;
}

export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

export async function loadContent(root: string, options: LoadOptions = {}): Promise<SiteContent> {
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new FeltError('CONTENT_MISSING', `there is no content folder at ${displayPath(root)}`, { hint: 'run felt in the folder that holds content/, or name it with --content' });
  }
  const problems: Problem[] = [];
  const file = (name: string) => path.join(root, name);
  const settings = await readJson(file('site.json'), siteSettingsSchema, problems);
  const rawCategories = await readJson(file('categories.json'), categoriesSchema, problems);
  const authors = await readJson(file('authors.json'), authorsSchema, problems);
  const ads = (await readJson(file('ads.json'), adsSchema, problems, { sapeNewUrl: '', sapeLinks: {} })) ?? { sapeNewUrl: '', sapeLinks: {} };
  const categories = rawCategories ? toCategoryNodes(rawCategories) : [];
  if (rawCategories) problems.push(...checkCategories(categories, displayPath(file('categories.json'))));
  if (authors) problems.push(...checkAuthors(authors, displayPath(file('authors.json'))));
  const pages = await loadInfoPages(file('pages'), problems);
  const articles = {} as Record<ContentLocale, Article[]>;
  const cache = options.cacheFile ? ArticleCache.open(options.cacheFile, feltCodeVersion()) : undefined;
  for (const locale of CONTENT_LOCALES) {
    articles[locale] = !options.locales || options.locales.includes(locale) ? await loadArticles(file(`articles/${locale}`), locale, problems, cache) : [];
    if (authors && rawCategories) problems.push(...checkArticles(articles[locale], authors, categories));
  }
  if (problems.some((p) => p.severity === 'error') || !settings || !authors) throw new ContentError(sortProblems(problems));
  cache?.save();
  return { root, settings: settings as SiteSettings, categories, authors: authors as Author[], pages, ads: ads as AdData, articles };
}

function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}

async function readJson<S extends z.ZodType>(file: string, schema: S, problems: Problem[], fallback?: z.input<S>): Promise<z.output<S> | undefined> {
  const shown = displayPath(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    if (fallback !== undefined) return schema.parse(fallback);
    problems.push({ file: shown, severity: 'error', message: 'file is missing', hint: 'create it (see README, "Configuration")' });
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    problems.push({ file: shown, severity: 'error', message: `is not valid JSON: ${(error as Error).message}` });
    return undefined;
  }
  const result = schema.safeParse(data, CONTENT_PARSE);
  if (result.success) return result.data;
  for (const { field, message } of formatIssues(result.error)) {
    problems.push({ file: shown, field, severity: 'error', message: `${field} ${message}` });
  }
  return undefined;
}

type RawCategories = z.output<typeof categoriesSchema>;

function toCategoryNodes(raw: RawCategories): CategoryNode[] {
  return Object.entries(raw).map(([key, node]) => ({
    key,
    slug: node.slug,
    title: node.title,
    description: node.description,
    children: node.children ? toCategoryNodes(node.children) : [],
  }));
}

async function listFiles(folder: string, extension: string): Promise<string[]> {
  try {
    const names = await readdir(folder);
    // Dot files are editors' and operating systems' (macOS ._x.md), never content.
    return names.filter((n) => n.endsWith(extension) && !n.startsWith('.')).sort();
  } catch {
    return [];
  }
}

async function loadArticles(folder: string, locale: ContentLocale, problems: Problem[], cache?: ArticleCache): Promise<Article[]> {
  const names = await listFiles(folder, '.md');
  const shownFolder = displayPath(folder);
  const articles: Article[] = [];
  const unread: { full: string; shown: string; size: number; mtimeMs: number }[] = [];
  // Remembered articles first, synchronously: on a nightly rebuild that is nearly all of them,
  // and a stat each is all they cost.
  for (const name of names) {
    const full = path.join(folder, name);
    const shown = path.join(shownFolder, name);
    const info = statSync(full);
    const cached = cache?.get(full, info.size, info.mtimeMs);
    if (cached) articles.push({ ...cached, file: shown });
    else if (info.size > MAX_ARTICLE_BYTES) {
      // Refused before reading: a 50 MB file is not an article, and reading it would only cost memory.
      problems.push({ file: shown, severity: 'error', message: `file is larger than ${MAX_ARTICLE_BYTES / 1024} KB`, hint: 'split it or remove what is not article text' });
    } else unread.push({ full, shown, size: info.size, mtimeMs: info.mtimeMs });
  }
  const limit = pLimit(64);
  await Promise.all(
    unread.map(({ full, shown, size, mtimeMs }) =>
      limit(async () => {
        const parsed = parseArticleBytes(await readFile(full), shown, locale, full);
        problems.push(...parsed.problems);
        if (parsed.article) {
          articles.push(parsed.article);
          if (parsed.problems.length === 0) cache?.set(full, size, mtimeMs, parsed.article);
        }
      }),
    ),
  );
  // Newest first is the order of every listing; ties broken by slug so builds are reproducible.
  // Plain comparisons: ISO dates and slugs sort by code unit, and localeCompare cost 100 ms at 10,000 articles.
  return articles.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

async function loadInfoPages(folder: string, problems: Problem[]): Promise<InfoPage[]> {
  const pages: InfoPage[] = [];
  for (const ui of UI_LOCALES) {
    for (const id of INFO_PAGE_IDS) {
      const full = path.join(folder, ui, `${id}.md`);
      let source: string;
      try {
        source = await readFile(full, 'utf8');
      } catch {
        if (ui === 'en') problems.push({ file: displayPath(full), severity: 'error', message: 'file is missing', hint: `write the ${id} page in English at least` });
        continue;
      }
      const split = splitFrontmatter(source);
      const fm = infoPageFrontmatterSchema.safeParse(split.data, CONTENT_PARSE);
      if (!fm.success) {
        for (const { field, message } of formatIssues(fm.error)) problems.push({ file: displayPath(full), field, line: split.lines.get(field), severity: 'error', message: `${field} ${message}` });
        continue;
      }
      pages.push({ id, ui, title: fm.data.title, description: fm.data.description, body: split.body, file: displayPath(full) });
    }
  }
  return pages;
}
