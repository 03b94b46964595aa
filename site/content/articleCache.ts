/**
 * Parsed articles remembered between runs, keyed by file path and checked by
 * size and modification time: a rebuild after a nightly pull reads and parses
 * only the files that changed. Only valid articles are remembered, and the
 * cache is dropped whenever felt's code changes.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../../shared/atomicWrite.ts';
import type { Article } from '../../shared/types.ts';

interface Entry {
  size: number;
  mtimeMs: number;
  article: Omit<Article, 'file'>;
}

interface CacheFile {
  version: string;
  entries: Record<string, Entry>;
}

export class ArticleCache {
  private readonly entries: Map<string, Entry>;
  private readonly next = new Map<string, Entry>();
  private changed = false;
  private readonly file: string;
  private readonly version: string;

  private constructor(file: string, version: string, entries: Map<string, Entry>) {
    this.file = file;
    this.version = version;
    this.entries = entries;
  }

  static open(file: string, version: string): ArticleCache {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
      if (data.version === version) return new ArticleCache(file, version, new Map(Object.entries(data.entries)));
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
    return new ArticleCache(file, version, new Map());
  }

  get(source: string, size: number, mtimeMs: number): Omit<Article, 'file'> | undefined {
    const entry = this.entries.get(source);
    if (!entry || entry.size !== size || entry.mtimeMs !== mtimeMs) return undefined;
    this.next.set(source, entry);
    return entry.article;
  }

  set(source: string, size: number, mtimeMs: number, article: Article): void {
    const { file: _shownPath, ...rest } = article;
    this.next.set(source, { size, mtimeMs, article: rest });
    this.changed = true;
  }

  /** Keeps what this run saw (deleted files drop out), written atomically; nothing to write when nothing changed. */
  save(): void {
    if (!this.changed && this.next.size === this.entries.size) return;
    const data: CacheFile = { version: this.version, entries: Object.fromEntries(this.next) };
    writeFileAtomicSync(this.file, JSON.stringify(data));
  }
}
