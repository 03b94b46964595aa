/**
 * The local side of pull's "has this article changed?": each article's MD5,
 * remembered in .felt-cache/checksums.json by file size and mtime, so a pull
 * of 100,000 unchanged articles does not read 100,000 files to learn that
 * nothing changed. A file whose size or mtime differs from the entry is read
 * and hashed again. A file modified in the last two seconds is not
 * remembered: a second edit within the clock's resolution could keep its
 * mtime, and the cache would then hide it (git's "racy" entries). The cache
 * is only ever a shortcut: missing or unreadable, it is rebuilt by hashing.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../shared/atomicWrite.ts';
import { md5Base64 } from './storage/checksum.ts';

const FORMAT = 'felt-checksums/1';
const RACY_MS = 2000;

/** [size, mtimeMs, md5] by "locale/slug". */
type Entries = Record<string, [number, number, string]>;

export class LocalChecksums {
  /** Files read and hashed (not answered by the cache) since open(). */
  hashed = 0;
  private readonly next: Entries = {};

  private constructor(
    private readonly file: string,
    private readonly known: Entries,
  ) {}

  /** The cache of a content folder lives beside it, in .felt-cache/ (where the build keeps its own). */
  static async open(contentDir: string): Promise<LocalChecksums> {
    // content/ and content.dev/ (pull --env dev) hold the same locale/slug names: each keeps its own file.
    const folderName = path.basename(path.resolve(contentDir));
    const file = path.join(path.dirname(path.resolve(contentDir)), '.felt-cache', folderName === 'content' ? 'checksums.json' : `checksums-${folderName}.json`);
    const parsed = await readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as { format?: unknown; entries?: unknown })
      .catch(() => undefined);
    const entries = parsed?.format === FORMAT && parsed.entries && typeof parsed.entries === 'object' ? (parsed.entries as Entries) : {};
    return new LocalChecksums(file, entries);
  }

  /** slug → MD5 of every `{slug}{extension}` in a folder; `group` names the folder's entries in the cache ("en_US", "images/en_US"). */
  async folder(folder: string, group: string, extension = '.md'): Promise<Map<string, string>> {
    const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith(extension));
    const limit = pLimit(32);
    const sums = await Promise.all(
      names.map((name) =>
        limit(async () => {
          const slug = name.slice(0, -extension.length);
          const file = path.join(folder, name);
          const info = await stat(file);
          const key = `${group}/${slug}`;
          const entry = this.known[key];
          if (entry && entry[0] === info.size && entry[1] === info.mtimeMs) {
            this.next[key] = entry;
            return [slug, entry[2]] as const;
          }
          const md5 = md5Base64(await readFile(file));
          this.hashed++;
          this.remember(key, info.size, info.mtimeMs, md5);
          return [slug, md5] as const;
        }),
      ),
    );
    return new Map(sums);
  }

  /** A file pull has just written with bytes of this MD5. */
  async wrote(file: string, group: string, slug: string, md5: string): Promise<void> {
    const info = await stat(file);
    this.remember(`${group}/${slug}`, info.size, info.mtimeMs, md5);
  }

  forget(locale: string, slug: string): void {
    delete this.next[`${locale}/${slug}`];
  }

  /** Keeps the entries of the files seen or written by this pull, nothing else. */
  async save(): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify({ format: FORMAT, entries: this.next }));
  }

  private remember(key: string, size: number, mtimeMs: number, md5: string): void {
    if (Date.now() - mtimeMs < RACY_MS) delete this.next[key];
    else this.next[key] = [size, mtimeMs, md5];
  }
}
