/**
 * Parsed articles remembered between runs, keyed by file path and checked by
 * size and modification time: a rebuild after a nightly pull reads and parses
 * only the files that changed. Only valid articles are remembered, and the
 * cache is dropped whenever felt's code changes.
 *
 * At 100,000 articles the cache is tens of megabytes, and a night changes a
 * few dozen entries. So it is kept as a base file of rows (one array per
 * article, its fields in a fixed order: a third smaller than objects, and
 * parsed in about half the time), one per line, in the order of the files'
 * paths, and a journal of the rows added since, likewise, appended at the end
 * of a run. The journal is folded into a new base (written atomically) once it
 * holds more than a twentieth of the articles, or when entries must go (files
 * deleted). A journal line cut short by a crash is skipped: every entry is
 * only a fact about one file at one size and time, so a lost one costs a
 * parse, never a wrong page.
 *
 * A build asks for its files in the same order (each locale's folder, names
 * sorted), so the base is walked, not indexed: each row is the next file's, or
 * belongs to a file further on (the file asked for is new). Only a row of a
 * file that is not asked for (a file deleted, or files asked for in another
 * order) has the rows left put in a map, as every row once was: at 100,000
 * articles that map, its 100,000 path strings and entry objects were a fifth
 * of loading the content on a rebuild, and garbage for the collector to copy.
 */
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cacheFolderOf } from '../../shared/paths.ts';
import { writeFileAtomicSync } from '../../shared/atomicWrite.ts';
import { readStateText } from '../../shared/stateText.ts';
import type { Article } from '../../shared/types.ts';

type CachedArticle = Omit<Article, 'file'>;

/** The article cache of a content folder: `felt build` keeps it, `felt check` reads it. */
export function articleCacheFile(contentDir: string): string {
  return path.join(cacheFolderOf(contentDir), 'articles.json');
}

interface Entry {
  size: number;
  mtimeMs: number;
  article: CachedArticle;
}

/**
 * The article's fields in a row, after its source, size and time. `source` is the row's key. `entities` is kept as
 * its JSON text: thousands of articles are filed alike, and one parsed list serves every row with the same text
 * (fromRow), where parsing them all made four objects an article for the collector.
 */
const FIELDS = ['id', 'slug', 'title', 'description', 'author', 'date', 'updated', 'locale', 'translationKey', 'entities', 'words', 'digest', 'draft'] as const;
const ID_AT = FIELDS.indexOf('id');
const SLUG_AT = FIELDS.indexOf('slug');
const TITLE_AT = FIELDS.indexOf('title');
const DESCRIPTION_AT = FIELDS.indexOf('description');
const AUTHOR_AT = FIELDS.indexOf('author');
const DATE_AT = FIELDS.indexOf('date');
const UPDATED_AT = FIELDS.indexOf('updated');
const LOCALE_AT = FIELDS.indexOf('locale');
const TRANSLATION_KEY_AT = FIELDS.indexOf('translationKey');
const ENTITIES_AT = FIELDS.indexOf('entities');
const WORDS_AT = FIELDS.indexOf('words');
const DIGEST_AT = FIELDS.indexOf('digest');
const DRAFT_AT = FIELDS.indexOf('draft');
/**
 * Fields a few values fill for thousands of articles (fifty authors, the days, three locales, the ways articles are filed): a
 * base row holds the number of the value in the base's `shared` list. A rebuild's cache parse then makes no string
 * for them (an entity list's text was a third of a row, escaped quotes and all), and the collector has fewer to
 * copy. Journal rows hold the values themselves: the base's list is not theirs to extend.
 */
const SHARED: readonly boolean[] = FIELDS.map((field) => ['author', 'date', 'locale', 'entities'].includes(field));
/** The rows' layout: a base of another layout is dropped. */
const LAYOUT = 'a row a line, in path order; entities as text, shared values by number, id null when it is the slug';
type Row = [source: string, size: number, mtimeMs: number, ...values: unknown[]];

/** The base file's first line; its rows follow, one a line, then its last line: the shared values (a JSON array). */
interface BaseHead {
  version: string;
  layout?: string;
  fields: readonly string[];
}

/** Journal rows allowed before they are folded into the base: a twentieth of the articles, and never fewer than this. */
const JOURNAL_MIN = 1000;
/** A row starts with `["`, then its source. */
const QUOTE = 34;

/**
 * The base as read: its text, and its rows parsed, in order: where each line starts and ends, the file's size and
 * time, and the article. The rows are parsed when the cache is opened (on a large site beside the thread that lists
 * and checks the files), their sources left unkept: the build's own strings serve (get).
 */
interface Base {
  text: string;
  shared: string[];
  count: number;
  starts: number[];
  ends: number[];
  size: Float64Array;
  mtimeMs: Float64Array;
  articles: CachedArticle[];
}

const NO_BASE: Base = { text: '', shared: [], count: 0, starts: [], ends: [], size: new Float64Array(0), mtimeMs: new Float64Array(0), articles: [] };

export class ArticleCache {
  private readonly file: string;
  private readonly version: string;
  private readonly base: Base;
  /** The next base row to walk. */
  private next = 0;
  /** Once a file is asked for out of the base's order: the rows not walked yet, by source. */
  private index: Map<string, number> | undefined;
  /** The journal's entries, by source: they stand in for the base's. */
  private readonly journalEntries: Map<string, Entry>;
  private journalRows: number;
  /** Whether the files held any entry when opened: with none, a run's entries make a base, not a journal. */
  private readonly hadEntries: boolean;
  /** What a new base keeps: the base rows asked for and unchanged (their numbers, in order), and entries. */
  private readonly keptRows: number[] = [];
  private readonly keptEntries = new Map<string, Entry>();
  /** Sources whose row is stale (their file changed) and not set again: if none is set, the entry goes. */
  private readonly stale = new Set<string>();
  /** Sources set this run: their rows are made only if they go to the journal (a cold build sets every article). */
  private readonly added: string[] = [];

  private constructor(file: string, version: string, base: Base, journalEntries: Map<string, Entry>, journalRows: number) {
    this.file = file;
    this.version = version;
    this.base = base;
    this.journalEntries = journalEntries;
    this.journalRows = journalRows;
    this.hadEntries = base.count > 0 || journalEntries.size > 0;
  }

  private get journal(): string {
    return `${this.file}.journal`;
  }

  static open(file: string, version: string): ArticleCache {
    const entityLists = new Map<string, unknown>();
    let base: Base;
    try {
      const text = readStateText(file);
      // The base is written whole (atomically): a head, its rows, the shared values; anything else is no base.
      const headEnd = text.indexOf('\n');
      const sharedStart = text.lastIndexOf('\n', text.length - 2) + 1;
      const head = JSON.parse(text.slice(0, headEnd)) as BaseHead;
      if (head.version !== version || head.layout !== LAYOUT || head.fields.join() !== FIELDS.join()) throw new Error('another cache');
      const shared = JSON.parse(text.slice(sharedStart)) as string[];
      // A base cut short at a row's end would end with a row: that is no list of values.
      if (!Array.isArray(shared) || !shared.every((value) => typeof value === 'string')) throw new Error('no shared values');
      const starts: number[] = [];
      const ends: number[] = [];
      const articles: CachedArticle[] = [];
      const sizes: number[] = [];
      const times: number[] = [];
      // A row a line, each parsed on its own: the row arrays (and their sources) are garbage at once.
      for (let start = headEnd + 1, end; start < sharedStart && (end = text.indexOf('\n', start)) !== -1; start = end + 1) {
        const row = JSON.parse(text.slice(start, end)) as Row;
        starts.push(start);
        ends.push(end);
        sizes.push(row[1]);
        times.push(row[2]);
        articles.push(fromRow('', row, entityLists, shared));
      }
      base = { text, shared, count: articles.length, starts, ends, size: Float64Array.from(sizes), mtimeMs: Float64Array.from(times), articles };
    } catch {
      // No cache yet, a cache of another felt, or an unreadable one: start empty.
      return new ArticleCache(file, version, NO_BASE, new Map(), 0);
    }
    let journal = '';
    try {
      journal = readStateText(`${file}.journal`);
    } catch {
      // No journal: nothing added since the base was written.
    }
    const journalEntries = new Map<string, Entry>();
    let journalRows = 0;
    for (const line of journal.split('\n')) {
      if (!line) continue;
      try {
        const row = JSON.parse(line) as Row;
        journalEntries.set(row[0], { size: row[1], mtimeMs: row[2], article: fromRow(row[0], row, entityLists, base.shared) });
        journalRows++;
      } catch {
        // A line cut short by a crash: that entry is parsed again.
      }
    }
    return new ArticleCache(file, version, base, journalEntries, journalRows);
  }

  /**
   * The article remembered for this file at this size and time, as an Article shown as `file`. It is the cache's own
   * object, not a copy (100,000 copies were a tenth of a rebuild's garbage): `file` is never written back (toRow).
   */
  get(source: string, size: number, mtimeMs: number, file: string): Article | undefined {
    const journalled = this.journalEntries.get(source);
    // The base's row for this file goes by either way: a journal entry stands in for it.
    const row = this.takeBaseRow(source);
    const { base } = this;
    const fits = journalled ? journalled.size === size && journalled.mtimeMs === mtimeMs : row !== undefined && base.size[row] === size && base.mtimeMs[row] === mtimeMs;
    if (!fits) {
      if (journalled || row !== undefined) this.stale.add(source);
      return undefined;
    }
    let article: Article;
    if (journalled) {
      this.keptEntries.set(source, journalled);
      article = journalled.article as Article;
    } else {
      this.keptRows.push(row!);
      article = base.articles[row!] as Article;
      article.source = source;
    }
    article.file = file;
    return article;
  }

  set(source: string, size: number, mtimeMs: number, article: Article): void {
    const { file: _shownPath, ...rest } = article;
    this.keptEntries.set(source, { size, mtimeMs, article: rest });
    this.stale.delete(source);
    this.added.push(source);
  }

  /**
   * The number of the base row of `source`, taken (the walk moves past it); undefined when the base has none. A row of
   * a file further on stays where it is: the file asked for is new. A row of a file before it was passed over
   * (deleted, or asked for in another order): the rows left are indexed, and looked up from then on.
   */
  private takeBaseRow(source: string): number | undefined {
    if (this.index) {
      const row = this.index.get(source);
      if (row !== undefined) this.index.delete(source);
      return row;
    }
    const row = this.next;
    if (row >= this.base.count) return undefined;
    const { text, starts, ends } = this.base;
    const start = starts[row]!;
    // Its row, known without a string made when the path needs no escaping in JSON (a file's path seldom does).
    const known = text.charCodeAt(start + 1) === QUOTE && text.startsWith(source, start + 2) && text.charCodeAt(start + 2 + source.length) === QUOTE;
    if (!known) {
      const rowSource = (JSON.parse(text.slice(start, ends[row])) as Row)[0];
      // Code-unit order, as the base is written and as a build lists its files.
      if (rowSource > source) return undefined;
      if (rowSource !== source) {
        this.indexRest();
        return this.takeBaseRow(source);
      }
    }
    this.next = row + 1;
    return row;
  }

  /** Puts the base rows not walked yet in a map by source: for files asked for out of the base's order. */
  private indexRest(): void {
    const { text, starts, ends, count } = this.base;
    const index = new Map<string, number>();
    for (let row = this.next; row < count; row++) index.set((JSON.parse(text.slice(starts[row], ends[row])) as Row)[0], row);
    this.index = index;
    this.next = count;
  }

  /**
   * Keeps what this run saw: new entries are appended to the journal, or, when the journal would grow past its
   * share or entries must go (deleted files), everything this run saw is written as a new base. Nothing is
   * written when nothing changed.
   */
  save(): void {
    // Rows not asked for are files gone; so are stale ones not set again (a file changed and not valid now).
    const gone =
      this.stale.size > 0 ||
      this.next < this.base.count ||
      (this.index?.size ?? 0) > 0 ||
      [...this.journalEntries.keys()].some((source) => !this.keptEntries.has(source));
    if (this.added.length === 0 && !gone) return;
    const seen = this.keptRows.length + this.keptEntries.size;
    const allowed = Math.max(JOURNAL_MIN, Math.floor(seen / 20));
    if (!gone && this.hadEntries && this.journalRows + this.added.length <= allowed) {
      appendFileSync(this.journal, this.added.map((source) => `${JSON.stringify(toRow(source, this.keptEntries.get(source)!))}\n`).join(''));
      this.journalRows += this.added.length;
      this.added.length = 0;
      return;
    }
    writeFileAtomicSync(this.file, baseFile(this.version, this.base, this.keptRows, this.keptEntries));
    // The base holds every row the journal did: a crash before this removal only replays facts already in it.
    rmSync(this.journal, { force: true });
    this.journalRows = 0;
    this.added.length = 0;
  }
}

/**
 * A row's article from its fields (FIELDS), as the article of `source`: a base row's is given when its file is asked
 * for (get), so that the row's own string is garbage at once. `entityLists` holds the entity lists parsed so far by
 * their text, shared by the rows that have it; `shared` the base's shared values (a base row's number for one stands
 * for it).
 *
 * Every article gets the same fields, in parseArticle's order, an absent one undefined (and `file` set by get): one
 * shape for every article, cached or parsed, so that the build's loops over 100,000 of them read their fields from one
 * hidden class, where an article with `updated` and one without were two (the sitemap's lastmod read alone cost 40 ms).
 */
function fromRow(source: string, row: Row, entityLists: Map<string, unknown>, shared: string[]): CachedArticle {
  const value = (field: number): unknown => {
    const raw = row[3 + field];
    if (SHARED[field] && typeof raw === 'number') return shared[raw];
    return raw ?? undefined;
  };
  const slug = value(SLUG_AT) as string;
  const entitiesText = value(ENTITIES_AT) as string;
  let entities = entityLists.get(entitiesText);
  if (entities === undefined) entityLists.set(entitiesText, (entities = JSON.parse(entitiesText)));
  const article = {
    id: (value(ID_AT) as string | undefined) ?? slug,
    file: '',
    slug,
    title: value(TITLE_AT),
    description: value(DESCRIPTION_AT),
    author: value(AUTHOR_AT),
    date: value(DATE_AT),
    updated: value(UPDATED_AT),
    locale: value(LOCALE_AT),
    translationKey: value(TRANSLATION_KEY_AT),
    entities,
    source,
    words: value(WORDS_AT),
    digest: value(DIGEST_AT),
  } as Article;
  const draft = value(DRAFT_AT) as Article['draft'];
  if (draft !== undefined) article.draft = draft;
  return article;
}

/**
 * The base file as it is written (the rows and entries this run kept), in path order, a thousand rows at a time, a
 * row a line: at 100,000 articles 35 MB. Rows of the base before are copied as they were, their shared values'
 * numbers kept (the new list starts with the old one); the shared values' list comes last, once every row has
 * numbered its own.
 */
function* baseFile(version: string, before: Base, keptRows: readonly number[], entries: ReadonlyMap<string, Entry>): Generator<string> {
  const head: BaseHead = { version, layout: LAYOUT, fields: FIELDS };
  yield `${JSON.stringify(head)}\n`;
  const numbers = new Map<string, number>(before.shared.map((value, i) => [value, i]));
  const numbered = (value: string) => {
    let number = numbers.get(value);
    if (number === undefined) numbers.set(value, (number = numbers.size));
    return number;
  };
  const entryLine = (source: string, entry: Entry) => {
    const row = toRow(source, entry);
    for (let i = 0; i < FIELDS.length; i++) if (SHARED[i] && typeof row[3 + i] === 'string') row[3 + i] = numbered(row[3 + i] as string);
    if (row[3 + ID_AT] === row[3 + SLUG_AT]) row[3 + ID_AT] = null;
    return `${JSON.stringify(row)}\n`;
  };
  // Both in path order: the kept rows as walked, the entries sorted; merged.
  const sources = [...entries.keys()].sort();
  let lines: string[] = [];
  let next = 0;
  // Row numbers are path order (the base is written so); looked up out of order, they were kept in another.
  for (const row of [...keptRows].sort((x, y) => x - y)) {
    const line = before.text.slice(before.starts[row], before.ends[row]);
    const source = (JSON.parse(line) as Row)[0];
    while (next < sources.length && sources[next]! < source) lines.push(entryLine(sources[next]!, entries.get(sources[next++]!)!));
    lines.push(`${line}\n`);
    if (lines.length >= 1000) {
      yield lines.join('');
      lines = [];
    }
  }
  while (next < sources.length) lines.push(entryLine(sources[next]!, entries.get(sources[next++]!)!));
  yield lines.join('');
  yield `${JSON.stringify([...numbers.keys()])}\n`;
}

function toRow(source: string, { size, mtimeMs, article }: Entry): Row {
  const values = FIELDS.map((field) => (article as unknown as Record<string, unknown>)[field] ?? null);
  values[ENTITIES_AT] = JSON.stringify(values[ENTITIES_AT]);
  return [source, size, mtimeMs, ...values];
}
