/**
 * One article file → a typed Article, or the problems that stop it.
 * Checks here concern the file alone; checks across files (authors,
 * categories, duplicate slugs) are in crossCheck.ts.
 */
import { hexDigest } from '../../shared/digest.ts';
import path from 'node:path';
import type { Problem } from '../../shared/errors.ts';
import { LIMIT_HINT, LIMITS, tooLarge } from '../../shared/limits.ts';
import type { Article, ContentLocale } from '../../shared/types.ts';
import type { ArticleReferences } from './crossCheck.ts';
import { unknownFieldHint } from '../../shared/validation.ts';
import { countWords } from '../../shared/words.ts';
import { readFrontmatter } from './frontmatter.ts';
import { articleFrontmatterSchema } from './schemas.ts';

export interface ParsedArticle {
  article?: Article;
  /**
   * An article refused for its own fields still names an author, categories
   * and a slug: those that are valid are checked across files in the same
   * round (felt check lists a file's problems all at once, not after a fix).
   */
  references?: ArticleReferences;
  /** The markdown body, when the frontmatter was read. */
  body?: string;
  problems: Problem[];
}

// ignoreBOM keeps a byte-order mark in the text, as Buffer#toString does; parseArticle strips it.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * parseArticle for a file's bytes. Bytes that are not UTF-8 (a file saved as
 * Latin-1 or Windows-1251, a cut download) are refused with their line,
 * rather than read as U+FFFD replacement characters into the site.
 */
export function parseArticleBytes(bytes: Buffer, file: string, folderLocale: ContentLocale, absolute = file): ParsedArticle {
  // Binary data (NUL bytes) has its own message in parseArticle.
  if (bytes.includes(0)) return parseArticle(bytes.toString('utf8'), file, folderLocale, absolute);
  let source: string;
  try {
    // Decoded once, here: this runs for every article a cold build reads.
    source = STRICT_UTF8.decode(bytes);
  } catch {
    return { problems: [{ file, line: firstUndecodableLine(bytes), severity: 'error', message: 'file is not UTF-8 text: bytes on this line do not decode', hint: 'save the file as UTF-8' }] };
  }
  return parseArticle(source, file, folderLocale, absolute);
}

/** Lossy decoding re-encodes every valid byte as it was: the first byte that differs is the first bad one. */
function firstUndecodableLine(bytes: Buffer): number {
  const reencoded = Buffer.from(bytes.toString('utf8'));
  let at = 0;
  while (at < bytes.length && bytes[at] === reencoded[at]) at++;
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < at; i = bytes.indexOf(10, i + 1)) line++;
  return line;
}

/**
 * `file` is the path shown in messages; `absolute` where the file lives (the
 * renderer reads the body from there again, so bodies need not stay in memory).
 */
export function parseArticle(source: string, file: string, folderLocale: ContentLocale, absolute = file): ParsedArticle {
  const problem = (message: string, extra: Partial<Problem> = {}): Problem => ({ file, message, severity: 'error', ...extra });
  // The loader refuses a file this large before reading it; text from elsewhere (a generated article) is measured here.
  const bytes = Buffer.byteLength(source);
  if (bytes > LIMITS.articleBytes) return { problems: [problem(`file ${tooLarge(bytes, LIMITS.articleBytes)}`, { hint: LIMIT_HINT })] };
  if (source.includes('\u0000')) {
    return { problems: [problem('file contains binary data (NUL bytes)', { hint: 'articles must be UTF-8 markdown text' })] };
  }
  if (source.trim() === '') {
    return { problems: [problem('file is empty', { hint: 'add frontmatter between --- lines and a markdown body' })] };
  }
  const read = readFrontmatter(source, file, articleFrontmatterSchema, 'start the file with --- and the fields title, slug, description, author, date, locale, entities');
  if (!read.ok) return { problems: read.problems, references: read.split && referencesOf(read.split.data, file) };
  const { split, data: fm } = read;
  const problems: Problem[] = unknownFields(split.data, file, split.lineOf);
  const expectedSlug = path.basename(file, '.md');
  if (fm.slug !== expectedSlug) {
    problems.push(problem(`slug "${fm.slug}" differs from the file name "${expectedSlug}.md"`, { field: 'slug', line: split.lineOf(['slug']), hint: `rename the file to ${fm.slug}.md or change the slug` }));
  }
  if (fm.locale !== folderLocale) {
    problems.push(problem(`locale "${fm.locale}" differs from the folder articles/${folderLocale}`, { field: 'locale', line: split.lineOf(['locale']), hint: 'move the file or fix the locale' }));
  }
  if (fm.updated && fm.updated < fm.date) {
    problems.push(problem(`updated ${fm.updated} is before date ${fm.date}`, { field: 'updated', line: split.lineOf(['updated']) }));
  }
  if (split.body.trim() === '') {
    problems.push(problem('the article has no text after its frontmatter', { field: 'body', line: split.bodyLine }));
  }
  // The article is returned even with the problems above, so checks across
  // files (duplicate slugs) still see it; any problem stops the build.
  // structuredClone: the frontmatter's strings are slices of the whole file,
  // and a slice keeps its file's text alive. Copied, an article holds its own
  // few hundred bytes instead of the ~7 KB file it came from (7.3 KB an
  // article of a cold build's heap before, most of its memory per article).
  const { slug, title, description, author, date, updated, translationKey, entities } = structuredClone(fm);
  const article: Article = {
    id: slug,
    file,
    slug,
    title,
    description,
    author,
    date,
    updated,
    locale: fm.locale,
    translationKey,
    entities,
    source: absolute,
    words: countWords(split.body),
    digest: hexDigest([source], 64),
  };
  return { article, body: split.body, problems };
}

const FRONTMATTER_FIELDS = Object.keys(articleFrontmatterSchema.shape);

/**
 * A warning for each frontmatter field felt does not read (`updted:` for `updated:`), naming the one it misspells.
 * Not an error, as in settings: a field of an article's own is harmless to every build, but a misspelt one is lost
 * without a word. An article with a warning is not kept in the article cache, so every `felt check` says it again.
 */
function unknownFields(data: Record<string, unknown>, file: string, lineOf: (path: readonly PropertyKey[]) => number | undefined): Problem[] {
  return Object.keys(data)
    .filter((key) => !Object.hasOwn(articleFrontmatterSchema.shape, key))
    .slice(0, LIMITS.problemsPerFile)
    .map((key) => ({
      file,
      field: key,
      line: lineOf([key]),
      severity: 'warning' as const,
      message: `${key} is not a field felt reads; it is left out`,
      hint: unknownFieldHint(key, FRONTMATTER_FIELDS),
    }));
}

/** The fields other files are checked against, each only if it is valid on its own. */
function referencesOf(data: Record<string, unknown>, file: string): ArticleReferences {
  const { slug, author, entities } = articleFrontmatterSchema.shape;
  const valid = <T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined => {
    const result = schema.safeParse(value);
    return result.success ? result.data : undefined;
  };
  return { file, slug: valid(slug, data.slug), author: valid(author, data.author), entities: valid(entities, data.entities) };
}
