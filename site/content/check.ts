/**
 * `felt check`: every problem in a content folder and the UI strings, found
 * in one pass and returned, never thrown. The content checks are loadContent's
 * own (the build refuses exactly what check reports); this adds line numbers
 * to the problems found across files, the UI-locale checks, and warnings for
 * what a visitor would miss without an error saying so: category names that a
 * display locale shows in English, files in articles/ outside the content
 * locales' folders, sponsored snippets that sanitising empties.
 */
import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { ContentError, type Problem } from '../../shared/errors.ts';
import { CONTENT_LOCALES, UI_LOCALES, type AdData, type AdFile, type CategoryNode, type ContentLocale, type Localized, type SiteContent } from '../../shared/types.ts';
import { displayPath } from '../../shared/paths.ts';
import { checkUiLocales } from './checkLocales.ts';
import { locateProblems } from './problemLines.ts';
import { loadContent } from './loadContent.ts';
import { sharedTranslationKeys } from './crossCheck.ts';
import { articleCacheFile } from './articleCache.ts';
import { contentRouteProblems } from '../routes/collisions.ts';
import { sanitizeAdHtml, sponsoredLink } from '../render/sponsored.ts';

export interface CheckOptions {
  contentDir: string;
  /** Folder of en.json, tr.json, ru.json, ko.json (default: felt's locales/). */
  localesDir?: string;
}

export interface CheckSummary {
  articles: Record<ContentLocale, number>;
  authors: number;
  categories: number;
  uiStrings: number;
}

export interface CheckReport {
  ok: boolean;
  errors: number;
  warnings: number;
  problems: Problem[];
  /** What was checked; absent when the content could not be loaded. */
  summary?: CheckSummary;
}

export async function checkContent(options: CheckOptions): Promise<CheckReport> {
  const problems: Problem[] = [];
  let content: SiteContent | undefined;
  try {
    // The build's article cache, read only: at 100,000 articles a check then reads and parses what changed, not every file.
    content = await loadContent(options.contentDir, { cacheFile: articleCacheFile(options.contentDir), cacheReadOnly: true, warnings: problems });
    problems.push(...contentRouteProblems(content));
    problems.push(...untranslated(content.settings.tagline, 'tagline', displayPath(path.join(options.contentDir, 'site.json'))));
    problems.push(...untranslatedCategories(content.categories, displayPath(path.join(options.contentDir, 'categories.json'))));
    for (const locale of CONTENT_LOCALES) problems.push(...sharedTranslationKeys(content.articles[locale]));
    problems.push(...emptiedAds(content.ads, displayPath(path.join(options.contentDir, 'ads.json'))));
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    problems.push(...error.problems);
  }
  // Read from the folder alone: said beside the errors too, where a stray articles/fr_FR/ may be their cause.
  problems.push(...strayArticleEntries(options.contentDir));
  const located = await locateProblems(problems, options.contentDir);
  const locales = await checkUiLocales(options.localesDir);
  problems.splice(0, problems.length, ...located, ...locales.problems);
  const errors = problems.filter((p) => p.severity === 'error').length;
  return {
    ok: errors === 0,
    errors,
    warnings: problems.length - errors,
    problems,
    summary: content && {
      articles: Object.fromEntries(CONTENT_LOCALES.map((l) => [l, content.articles[l].length])) as Record<ContentLocale, number>,
      authors: content.authors.length,
      categories: content.categories.length,
      uiStrings: locales.strings,
    },
  };
}

/**
 * What lies in articles/ beside the content locales' folders (`articles/xx_XX/`, `articles/fr/`, a stray .md): the
 * build reads only en_US, ru_RU and tr_TR, so their articles would be missing from the site without a word.
 */
function strayArticleEntries(contentDir: string): Problem[] {
  const articles = path.join(contentDir, 'articles');
  let entries: Dirent[];
  try {
    entries = readdirSync(articles, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => !entry.name.startsWith('.') && !(CONTENT_LOCALES as readonly string[]).includes(entry.name))
    .map((entry) => ({
      file: displayPath(path.join(articles, entry.name)),
      severity: 'warning' as const,
      message: `is not in a content locale's folder (${CONTENT_LOCALES.join(', ')}): the build does not read it`,
      hint: `move its articles into articles/${CONTENT_LOCALES[0]}/ or another locale's folder, or remove it`,
    }));
}

/**
 * Sponsored snippets that sanitising leaves with nothing to show (a script, a `javascript:` link, a link without an
 * address): the build drops them from every page (sponsored.ts), and the operator would never know why an ad is
 * missing.
 */
function emptiedAds(ads: AdFile, file: string): Problem[] {
  const copies: [string, AdData][] = [['', ads], ...UI_LOCALES.flatMap((ui): [string, AdData][] => (ads[ui] ? [[`${ui}.`, ads[ui]]] : []))];
  const problems: Problem[] = [];
  const warn = (field: string, what: string) =>
    problems.push({
      file,
      field,
      severity: 'warning',
      message: `${what} once sanitised, so no page shows it (only http(s) links and inline text are kept)`,
      hint: 'write it as <a href="https://…">text</a>, with optional text around it',
    });
  for (const [prefix, data] of copies) {
    if (data.sapeNewUrl.trim() && !sanitizeAdHtml(data.sapeNewUrl)) warn(`${prefix}sapeNewUrl`, 'is empty');
    for (const [page, snippets] of Object.entries(data.sapeLinks))
      snippets.forEach((html, i) => {
        if (sponsoredLink(html) === undefined) warn(`${prefix}sapeLinks.${page}.${i}`, 'holds no link');
      });
  }
  return problems;
}

/** A text without a tr, ru or ko version is shown in English there: worth a warning, not an error. */
function untranslated(value: Localized, field: string, file: string): Problem[] {
  const missing = UI_LOCALES.filter((ui) => !value[ui]);
  if (!missing.length) return [];
  return [{ file, field, severity: 'warning', message: `has no ${missing.join(', ')} text; the English one is shown there`, hint: `add ${missing.map((m) => `"${m}"`).join(', ')} to ${field}` }];
}

function untranslatedCategories(categories: CategoryNode[], file: string, prefix = ''): Problem[] {
  return categories.flatMap((node) => [
    ...untranslated(node.title, `${prefix}${node.key}.title`, file),
    ...untranslated(node.description, `${prefix}${node.key}.description`, file),
    ...untranslatedCategories(node.children, file, `${prefix}${node.key}.children.`),
  ]);
}
