/**
 * Reading and parsing the article files a build has not parsed before (none
 * remembered in the article cache), on this thread and, for a large site, on
 * a second thread beside it: a cold build's render worker starts before the
 * content is loaded and would otherwise wait for its first page (1.3-1.5 s at
 * 10,000 articles) while this thread parses every file alone.
 *
 * Both threads take files one at a time from one counter in shared memory
 * (Atomics), so each does as many as it can: the worker starts late, having
 * its own modules to load first, and neither waits for the other's messages.
 * What each file gave is put back in file order before anything uses it, so
 * the result is the same whichever thread parsed what.
 */
import type { Problem } from '../../shared/errors.ts';
import { readInspected } from '../../shared/inputFile.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { Article, ContentLocale } from '../../shared/types.ts';
import type { ArticleReferences } from './crossCheck.ts';
import { parseArticleBytes } from './parseArticle.ts';

/** A file to read, checked already (inspectInput or the listing thread's lstat): its size and time are the cache's key. */
export interface UnreadArticle {
  full: string;
  shown: string;
  size: number;
  mtimeMs: number;
}

/** What one file gave: an article, or what a refused one still names (checked across files), and its problems. */
export interface FileOutcome {
  article?: Article;
  references?: ArticleReferences;
  problems: Problem[];
}

/** Another thread that parses a share of the files beside this one. */
export interface ParsingHelper {
  /**
   * Starts parsing `files`, taking each from `claims` as this thread does
   * (claimFiles). Resolves with what it parsed, by index, once nothing is
   * left to take, or with what it had when its thread failed (this thread
   * then parses the files it had taken and not finished).
   */
  parse(locale: ContentLocale, files: UnreadArticle[], claims: Int32Array): Promise<[number, FileOutcome][]>;
}

/**
 * From this many unread files on, a second thread parses beside this one: below it (a rebuild's new articles), the
 * messages and the structured copies cost more than they save.
 */
export const PARSE_BESIDE_FILES = 1000;

/** A counter in shared memory that two threads take file indices from. */
export function newClaims(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** One file read and parsed. A file gone since it was listed gives nothing, as if it had never been there. */
export async function readAndParse(file: UnreadArticle, locale: ContentLocale): Promise<FileOutcome> {
  const read = await readInspected(file.full, file.size, LIMITS.articleBytes);
  if (read.kind === 'missing') return { problems: [] };
  if (read.kind === 'refused') return { problems: [{ file: file.shown, severity: 'error', message: read.message, hint: read.hint }] };
  // The body stays behind: the renderer reads it again, and a copy to another thread would cost more than the parse.
  const { article, references, problems } = parseArticleBytes(read.bytes, file.shown, locale, file.full);
  return { article, references, problems };
}

/** Reads and parses files, taking their indices one at a time from `claims` until none is left. */
export async function claimFiles(
  files: UnreadArticle[],
  locale: ContentLocale,
  claims: Int32Array,
  done: (index: number, outcome: FileOutcome) => void,
): Promise<void> {
  for (let index = Atomics.add(claims, 0, 1); index < files.length; index = Atomics.add(claims, 0, 1)) {
    done(index, await readAndParse(files[index]!, locale));
  }
}

/**
 * Every file's outcome, in file order: this thread takes files with `helper` (when there is one and enough files)
 * taking them too, then parses whatever a failed helper took and did not give back.
 */
export async function parseUnread(files: UnreadArticle[], locale: ContentLocale, helper?: ParsingHelper): Promise<FileOutcome[]> {
  const outcomes: (FileOutcome | undefined)[] = new Array(files.length);
  const claims = newClaims();
  const beside = helper && files.length >= PARSE_BESIDE_FILES ? helper.parse(locale, files, claims) : undefined;
  await claimFiles(files, locale, claims, (index, outcome) => (outcomes[index] = outcome));
  if (beside) for (const [index, outcome] of await beside) outcomes[index] = outcome;
  for (let index = 0; index < files.length; index++) outcomes[index] ??= await readAndParse(files[index]!, locale);
  return outcomes as FileOutcome[];
}
