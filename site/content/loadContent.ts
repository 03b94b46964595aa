/**
 * Reads a content folder into typed SiteContent. Every problem in every file
 * is collected; if any is an error the whole set is thrown as one
 * ContentError, so an operator fixes everything in one pass.
 */
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ContentError, FeltError, type Problem } from '../../shared/errors.ts';
import { folderOutside, inspectInput, readInput, readInspected, type InputCheck } from '../../shared/inputFile.ts';
import { readJsonFile } from '../../shared/json.ts';
import { LIMITS } from '../../shared/limits.ts';
import { articleFolder, displayPath } from '../../shared/paths.ts';
import { readSettingsFiles, SETTINGS_FILES } from '../../shared/settings.ts';
import { CONTENT_LOCALES, UI_LOCALES, type Article, type ContentLocale, type InfoPage, type SiteContent } from '../../shared/types.ts';
import { feltCodeVersion } from '../build/codeVersion.ts';
import { ArticleCache } from './articleCache.ts';
import { checkArticles, checkAuthors, checkCategories, type ArticleReferences } from './crossCheck.ts';
import { readFrontmatter } from './frontmatter.ts';
import { locateProblems } from './problemLines.ts';
import { loadRetractions, withoutRetracted } from './retractions.ts';
import type { Retraction } from '../../shared/retraction.ts';
import { parseArticleBytes } from './parseArticle.ts';
import { isArticleFile, largeSiteCache, listInBackground, takeListingAhead, type FolderListing } from './statFiles.ts';
import { adsSchema, infoPageFrontmatterSchema } from './schemas.ts';

export const INFO_PAGE_IDS = ['about-us', 'privacy-policy', 'terms'] as const;

/** Article files read at once: enough to keep the disk busy while one is parsed. */
const READERS = 64;

export interface LoadOptions {
  /** Only these content locales' articles are read (all by default). */
  locales?: readonly ContentLocale[];
  /** Where parsed articles are remembered between runs (see articleCache.ts); none by default. */
  cacheFile?: string;
  /** Read the cache but never write it (`felt check`: a reader, which may run where nothing can be written). */
  cacheReadOnly?: boolean;
  /**
   * Work for this thread while another lists and checks the files (a large site's), called once, after the cache
   * is parsed: this thread would otherwise wait (`felt build` reads the served release's manifest then).
   */
  beside?: () => void;
  /** Where the warnings go when there is no error (`felt check` lists them; a build has no use for them). */
  warnings?: Problem[];
}

export async function loadContent(root: string, options: LoadOptions = {}): Promise<SiteContent> {
  const rootInfo = statSync(root, { throwIfNoEntry: false });
  if (!rootInfo?.isDirectory()) {
    const what = rootInfo ? `${displayPath(root)} is a file, not a content folder` : `there is no content folder at ${displayPath(root)}`;
    throw new FeltError('CONTENT_MISSING', what, { hint: 'run felt in the folder that holds content/, or name it with --content' });
  }
  const problems: Problem[] = [];
  const file = (name: string) => path.join(root, name);
  const wanted = CONTENT_LOCALES.filter((locale) => !options.locales || options.locales.includes(locale));
  // A folder linked out of content/ is one problem, and nothing in it is read.
  const folders = new Map(wanted.map((locale) => [locale, articleFolder(root, locale)] as const));
  const readable = wanted.filter((locale) => !linkedOutside(folders.get(locale)!, root, problems));
  // A large site's folders are listed and their files checked on another thread, started first (by felt build before
  // its modules loaded, if it could): this one reads the settings and parses the article cache meanwhile. A worker
  // that cannot start leaves both to this thread.
  const readableFolders = readable.map((locale) => folders.get(locale)!);
  const inBackground = !options.cacheFile
    ? undefined
    : (takeListingAhead(readableFolders) ?? (largeSiteCache(options.cacheFile) ? listInBackground(readableFolders).catch(() => undefined) : undefined));
  const { settings, categories, authors } = await readSettingsFiles(root, problems);
  const ads = (await readJsonFile(file('ads.json'), adsSchema, problems, { fallback: {}, root, maxBytes: LIMITS.adsBytes })) ?? { sapeNewUrl: '', sapeLinks: {} };
  if (categories) problems.push(...checkCategories(categories, displayPath(file(SETTINGS_FILES.categories))));
  if (authors) problems.push(...checkAuthors(authors, displayPath(file(SETTINGS_FILES.authors))));
  const pages = await loadInfoPages(root, problems);
  const articles = {} as Record<ContentLocale, Article[]>;
  const retracted: Partial<Record<ContentLocale, Retraction[]>> = {};
  const cache = options.cacheFile ? ArticleCache.open(options.cacheFile, feltCodeVersion()) : undefined;
  if (inBackground) options.beside?.();
  const listed = await inBackground;
  const listings = new Map<ContentLocale, ArticleListing>();
  for (const locale of wanted) {
    const folder = folders.get(locale)!;
    const at = readable.indexOf(locale);
    const found = at < 0 ? undefined : listed?.[at];
    listings.set(locale, { folder, names: at < 0 ? [] : (found?.names ?? (await listFiles(folder))), found });
  }
  for (const locale of CONTENT_LOCALES) {
    const refused: ArticleReferences[] = [];
    const listing = listings.get(locale);
    articles[locale] = listing ? await loadArticles(root, locale, problems, refused, cache, listing) : [];
    if (authors && categories) problems.push(...checkArticles([...articles[locale], ...refused], authors, categories));
    if (!options.locales || options.locales.includes(locale)) retracted[locale] = await loadRetractions(root, locale, problems);
  }
  // Problems found across files carry a file and a field; their lines are read only now, when there are problems to print.
  if (problems.some((p) => p.severity === 'error') || !settings || !categories || !authors) throw new ContentError(sortProblems(await locateProblems(problems, root)));
  options.warnings?.push(...sortProblems(problems));
  if (!options.cacheReadOnly) cache?.save();
  return withoutRetracted({ root, settings, categories, authors, pages, ads, articles, retracted });
}

function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}

/** A folder's article files, in name order (none when it cannot be read), as listInBackground lists them. */
async function listFiles(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter(isArticleFile).sort();
  } catch {
    return [];
  }
}

/** A folder of the content folder that a symbolic link takes outside it: one problem, and nothing in it is read. */
function linkedOutside(folder: string, root: string, problems: Problem[]): boolean {
  const real = folderOutside(folder, root);
  if (real !== undefined) problems.push({ file: displayPath(folder), severity: 'error', message: `is a symbolic link to ${real}, outside the content folder`, hint: 'move the files into the content folder instead of linking to them' });
  return real !== undefined;
}

/**
 * A locale's article files, in name order (none when the folder links outside content/), with the size and time of
 * each that another thread found (a large site's, listInBackground).
 */
interface ArticleListing {
  folder: string;
  names: string[];
  found?: Omit<FolderListing, 'names'>;
}

async function listArticles(root: string, locale: ContentLocale, problems: Problem[]): Promise<ArticleListing> {
  const folder = articleFolder(root, locale);
  return { folder, names: linkedOutside(folder, root, problems) ? [] : await listFiles(folder) };
}

/** The articles of a locale; `refused` gets what the refused ones reference, for the checks across files. */
export async function loadArticles(
  root: string,
  locale: ContentLocale,
  problems: Problem[],
  refused: ArticleReferences[] = [],
  cache?: ArticleCache,
  listed?: ArticleListing,
): Promise<Article[]> {
  const { folder, names, found: stats } = listed ?? (await listArticles(root, locale, problems));
  const pathOf = articlePaths(folder);
  const articles: Article[] = [];
  const unread: { full: string; shown: string; size: number; mtimeMs: number }[] = [];
  // Remembered articles first, synchronously: on a nightly rebuild that is nearly all of them,
  // and a stat each is all they cost.
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const { full, shown } = pathOf(name);
    // Anything but a file within its limit (a folder, a FIFO, a link out of content/) is refused before it is read.
    const info: InputCheck =
      stats?.regular[i] && stats.size[i]! <= LIMITS.articleBytes
        ? { kind: 'file', size: stats.size[i]!, mtimeMs: stats.mtimeMs[i]! }
        : inspectInput(full, { root, maxBytes: LIMITS.articleBytes });
    if (info.kind === 'refused') problems.push({ file: shown, severity: 'error', message: info.message, hint: info.hint });
    if (info.kind !== 'file') continue;
    const cached = cache?.get(full, info.size, info.mtimeMs, shown);
    if (cached) articles.push(cached);
    else unread.push({ full, shown, size: info.size, mtimeMs: info.mtimeMs });
  }
  const shareList = entityListSharer();
  // READERS readers, each taking the next unread file until none is left. A task queued per file (p-limit) held
  // about half a kilobyte until its turn: tens of megabytes at the start of a cold 100,000-article load.
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < unread.length; i = next++) {
      const { full, shown, size, mtimeMs } = unread[i]!;
      const read = await readInspected(full, size, LIMITS.articleBytes);
      if (read.kind === 'refused') problems.push({ file: shown, severity: 'error', message: read.message, hint: read.hint });
      if (read.kind !== 'read') continue;
      const parsed = parseArticleBytes(read.bytes, shown, locale, full);
      problems.push(...parsed.problems);
      if (parsed.references) refused.push(parsed.references);
      if (parsed.article) {
        shareList(parsed.article);
        articles.push(parsed.article);
        // Only an article without a word to say: one with a warning (a field felt does not read) is parsed again,
        // so every `felt check` says it.
        if (parsed.problems.length === 0) cache?.set(full, size, mtimeMs, parsed.article);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READERS, unread.length) }, reader));
  // Newest first is the order of every listing; ties broken by slug so builds are reproducible.
  // Plain comparisons: ISO dates and slugs sort by code unit, and localeCompare cost 100 ms at 10,000 articles.
  return articles.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/**
 * An article file's path (`full`: where it is read from, an article's `source`) and the path shown in messages
 * (`shown`, its `file`), from its name in `folder`. A file's name never holds a separator (listFiles): joined by hand,
 * 100,000 path.join calls cost 40 ms. The shown path is the end of the full one whenever the folder's shown path is
 * the end of the folder's (content/ under the working folder, or the same path), and is then taken as a slice of it:
 * one string an article instead of two. Joined apart, the shown path was about 100 B an article for the whole build
 * (a heap snapshot at 50,000 articles), read only when a message names the file.
 */
function articlePaths(folder: string): (name: string) => { full: string; shown: string } {
  const shownFolder = displayPath(folder);
  const prefix = folder + path.sep;
  if (!folder.endsWith(shownFolder)) return (name) => ({ full: prefix + name, shown: shownFolder + path.sep + name });
  const shownExtra = shownFolder.length + path.sep.length;
  return (name) => {
    const full = prefix + name;
    return { full, shown: full.slice(full.length - shownExtra - name.length) };
  };
}

/**
 * Gives articles filed alike one entity list, as the article cache does on a rebuild (articleCache.ts): a cold build
 * parsed one per article, about 0.5 KB each that thousands of articles repeat, and the checks across files and the
 * category index place each distinct list once. Nothing changes a list once it is parsed.
 */
function entityListSharer(): (article: Article) => void {
  const lists = new Map<string, Article['entities']>();
  return (article) => {
    const text = JSON.stringify(article.entities);
    const known = lists.get(text);
    if (known) article.entities = known;
    else lists.set(text, article.entities);
  };
}

async function loadInfoPages(root: string, problems: Problem[]): Promise<InfoPage[]> {
  const pages: InfoPage[] = [];
  for (const ui of UI_LOCALES) {
    const folder = path.join(root, 'pages', ui);
    if (linkedOutside(folder, root, problems)) continue;
    for (const id of INFO_PAGE_IDS) {
      const full = path.join(folder, `${id}.md`);
      const shown = displayPath(full);
      const read = await readInput(full, { root, maxBytes: LIMITS.infoPageBytes });
      if (read.kind === 'missing') {
        if (ui === 'en') problems.push({ file: shown, severity: 'error', message: 'file is missing', hint: `write the ${id} page in English at least` });
        continue;
      }
      if (read.kind === 'refused') {
        problems.push({ file: shown, severity: 'error', message: read.message, hint: read.hint });
        continue;
      }
      const page = readFrontmatter(read.bytes.toString('utf8'), shown, infoPageFrontmatterSchema, 'start the file with --- and the fields title, description');
      if (!page.ok) {
        problems.push(...page.problems);
        continue;
      }
      pages.push({ id, ui, title: page.data.title, description: page.data.description, body: page.split.body, file: shown });
    }
  }
  return pages;
}
