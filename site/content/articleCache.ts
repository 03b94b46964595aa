/**
 * Parsed articles remembered between runs, keyed by file path and checked by
 * size and modification time: a rebuild after a nightly pull reads and parses
 * only the files that changed. Only valid articles are remembered, and the
 * cache is dropped whenever felt's code changes.
 *
 * At 100,000 articles the cache is tens of megabytes, and a night changes a
 * few dozen entries. So it is kept as a base file of rows (one array per
 * article, its fields in a fixed order: a third smaller than objects, and
 * parsed in about half the time), one per line, and a journal of the rows
 * added since, likewise, appended at the end of a run. The journal is folded into a new
 * base (written atomically) once it holds more than a twentieth of the
 * articles, or when entries must go (files deleted). A journal line cut short
 * by a crash is skipped: every entry is only a fact about one file at one
 * size and time, so a lost one costs a parse, never a wrong page.
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
  /** Asked for (get) or set in this run: the entries a new base keeps. */
  seen: boolean;
}

/**
 * The article's fields in a row, after its source, size and time. `source` is the row's key. `entities` is kept as
 * its JSON text: thousands of articles are filed alike, and one parsed list serves every row with the same text
 * (fromRow), where parsing them all made four objects an article for the collector.
 */
const FIELDS = ['id', 'slug', 'title', 'description', 'author', 'date', 'updated', 'locale', 'translationKey', 'entities', 'words', 'digest', 'draft'] as const;
const ID_AT = FIELDS.indexOf('id');
const SLUG_AT = FIELDS.indexOf('slug');
const ENTITIES_AT = FIELDS.indexOf('entities');
/**
 * Fields a few values fill for thousands of articles (fifty authors, the days, three locales, the ways articles are filed): a
 * base row holds the number of the value in the base's `shared` list. A rebuild's cache parse then makes no string
 * for them (an entity list's text was a third of a row, escaped quotes and all), and the collector has fewer to
 * copy. Journal rows hold the values themselves: the base's list is not theirs to extend.
 */
const SHARED: readonly boolean[] = FIELDS.map((field) => ['author', 'date', 'locale', 'entities'].includes(field));
/** The rows' layout: a base of another layout is dropped. */
const LAYOUT = 'a row a line; entities as text, shared values by number, id null when it is the slug';
type Row = [source: string, size: number, mtimeMs: number, ...values: unknown[]];

/** The base file's first line; its rows follow, one a line, then its last line: the shared values (a JSON array). */
interface BaseHead {
  version: string;
  layout?: string;
  fields: readonly string[];
}

/** Journal rows allowed before they are folded into the base: a twentieth of the articles, and never fewer than this. */
const JOURNAL_MIN = 1000;

export class ArticleCache {
  /** Every entry, the base's and this run's: marked as seen in place, where a second map of 100,000 cost a tenth of a rebuild's lookups. */
  private readonly entries: Map<string, Entry>;
  private seenCount = 0;
  /** How many entries the files held when opened: with none, a run's entries make a base, not a journal. */
  private readonly openedWith: number;
  /** Sources set this run: their rows are made only if they go to the journal (a cold build sets every article). */
  private readonly added: string[] = [];
  private readonly file: string;
  private readonly version: string;
  private journalRows: number;

  private constructor(file: string, version: string, entries: Map<string, Entry>, journalRows: number) {
    this.file = file;
    this.version = version;
    this.entries = entries;
    this.openedWith = entries.size;
    this.journalRows = journalRows;
  }

  private get journal(): string {
    return `${this.file}.journal`;
  }

  static open(file: string, version: string): ArticleCache {
    const entries = new Map<string, Entry>();
    const entityLists = new Map<string, unknown>();
    let shared: string[];
    try {
      const text = readStateText(file);
      // The base is written whole (atomically): a head, its rows, the shared values; anything else is no base.
      const headEnd = text.indexOf('\n');
      const sharedStart = text.lastIndexOf('\n', text.length - 2) + 1;
      const head = JSON.parse(text.slice(0, headEnd)) as BaseHead;
      if (head.version !== version || head.layout !== LAYOUT || head.fields.join() !== FIELDS.join()) throw new Error('another cache');
      shared = JSON.parse(text.slice(sharedStart)) as string[];
      // A base cut short at a row's end would end with a row: that is no list of values.
      if (!Array.isArray(shared) || !shared.every((value) => typeof value === 'string')) throw new Error('no shared values');
      // A row a line, each parsed on its own: the row arrays are garbage at once, where one parse of the whole file
      // kept 100,000 of them alive for the collector to copy.
      for (let start = headEnd + 1, end; start < sharedStart && (end = text.indexOf('\n', start)) !== -1; start = end + 1) {
        const row = JSON.parse(text.slice(start, end)) as Row;
        entries.set(row[0], fromRow(row, entityLists, shared));
      }
    } catch {
      // No cache yet, a cache of another felt, or an unreadable one: start empty.
      return new ArticleCache(file, version, new Map(), 0);
    }
    let journalRows = 0;
    let journal = '';
    try {
      journal = readStateText(`${file}.journal`);
    } catch {
      // No journal: nothing added since the base was written.
    }
    for (const line of journal.split('\n')) {
      if (!line) continue;
      try {
        const row = JSON.parse(line) as Row;
        entries.set(row[0], fromRow(row, entityLists, shared));
        journalRows++;
      } catch {
        // A line cut short by a crash: that entry is parsed again.
      }
    }
    return new ArticleCache(file, version, entries, journalRows);
  }

  /**
   * The article remembered for this file at this size and time, as an Article shown as `file`. It is the cache's own
   * object, not a copy (100,000 copies were a tenth of a rebuild's garbage): `file` is never written back (toRow).
   */
  get(source: string, size: number, mtimeMs: number, file: string): Article | undefined {
    const entry = this.entries.get(source);
    if (!entry || entry.size !== size || entry.mtimeMs !== mtimeMs) return undefined;
    if (!entry.seen) {
      entry.seen = true;
      this.seenCount++;
    }
    const article = entry.article as Article;
    article.file = file;
    return article;
  }

  set(source: string, size: number, mtimeMs: number, article: Article): void {
    const { file: _shownPath, ...rest } = article;
    if (!this.entries.get(source)?.seen) this.seenCount++;
    this.entries.set(source, { size, mtimeMs, article: rest, seen: true });
    this.added.push(source);
  }

  /**
   * Keeps what this run saw: new entries are appended to the journal, or, when the journal would grow past its
   * share or entries must go (deleted files), everything this run saw is written as a new base. Nothing is
   * written when nothing changed.
   */
  save(): void {
    // Entries not seen are files gone (or changed and not valid now).
    const gone = this.seenCount < this.entries.size;
    if (this.added.length === 0 && !gone) return;
    const allowed = Math.max(JOURNAL_MIN, Math.floor(this.seenCount / 20));
    if (!gone && this.openedWith > 0 && this.journalRows + this.added.length <= allowed) {
      appendFileSync(this.journal, this.added.map((source) => `${JSON.stringify(toRow(source, this.entries.get(source)!))}\n`).join(''));
      this.journalRows += this.added.length;
      this.added.length = 0;
      return;
    }
    writeFileAtomicSync(this.file, baseFile(this.version, this.entries));
    // The base holds every row the journal did: a crash before this removal only replays facts already in it.
    rmSync(this.journal, { force: true });
    this.journalRows = 0;
    this.added.length = 0;
  }
}

/**
 * The base file as it is written (the entries seen this run), a thousand rows at a time, a row a line: at 100,000
 * articles 35 MB. The shared values' list comes last, once every row has numbered its own.
 */
function* baseFile(version: string, entries: Map<string, Entry>): Generator<string> {
  const head: BaseHead = { version, layout: LAYOUT, fields: FIELDS };
  yield `${JSON.stringify(head)}\n`;
  const numbers = new Map<string, number>();
  const numbered = (value: string) => {
    let number = numbers.get(value);
    if (number === undefined) numbers.set(value, (number = numbers.size));
    return number;
  };
  let lines: string[] = [];
  for (const [source, entry] of entries) {
    if (!entry.seen) continue;
    const row = toRow(source, entry);
    for (let i = 0; i < FIELDS.length; i++) if (SHARED[i] && typeof row[3 + i] === 'string') row[3 + i] = numbered(row[3 + i] as string);
    if (row[3 + ID_AT] === row[3 + SLUG_AT]) row[3 + ID_AT] = null;
    lines.push(`${JSON.stringify(row)}\n`);
    if (lines.length === 1000) {
      yield lines.join('');
      lines = [];
    }
  }
  yield lines.join('');
  yield `${JSON.stringify([...numbers.keys()])}\n`;
}

function toRow(source: string, { size, mtimeMs, article }: Entry): Row {
  const values = FIELDS.map((field) => (article as unknown as Record<string, unknown>)[field] ?? null);
  values[ENTITIES_AT] = JSON.stringify(values[ENTITIES_AT]);
  return [source, size, mtimeMs, ...values];
}

/**
 * A row as an entry; `entityLists` holds the entity lists parsed so far by their text, shared by the rows that have
 * it; `shared` the base's shared values (a base row's number for one stands for it).
 */
function fromRow(row: Row, entityLists: Map<string, unknown>, shared: string[]): Entry {
  const article: Record<string, unknown> = { source: row[0] };
  // A plain loop: this runs for every article of every rebuild.
  for (let i = 0; i < FIELDS.length; i++) {
    let value = row[3 + i];
    if (SHARED[i] && typeof value === 'number') value = shared[value];
    else if (i === ID_AT && value === null) value = row[3 + SLUG_AT];
    if (i === ENTITIES_AT) {
      const text = value as string;
      value = entityLists.get(text);
      if (value === undefined) entityLists.set(text, (value = JSON.parse(text)));
    }
    if (value !== null && value !== undefined) article[FIELDS[i]!] = value;
  }
  return { size: row[1], mtimeMs: row[2], article: article as unknown as CachedArticle, seen: false };
}
