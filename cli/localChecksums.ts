/**
 * The local side of "has this file changed?", for pull (content articles)
 * and deploy (a release's files): each file's MD5, remembered in a JSON file
 * in .felt-cache/ by the file's size, mtime and inode, so a pull of 100,000
 * unchanged articles or a deploy of an unchanged release does not read every
 * file to learn that nothing changed. A file whose size, mtime or inode
 * differs from the entry is read and hashed again. The inode matters for
 * deploy: an unchanged file in a new release is a hard link to the old one
 * (same inode, same mtime), a rewritten one is a new file. Each name keeps
 * the stamps of its last two files: a build makes its release from the one
 * before last (site/build/commit.ts), so after a full rebuild the unchanged
 * files of successive releases alternate between two inodes.
 *
 * A file modified in the last two seconds is not remembered: a second edit
 * within the clock's resolution could keep its mtime, and the cache would
 * then hide it (git's "racy" entries). The cache is only ever a shortcut:
 * missing or unreadable, it is rebuilt by hashing.
 *
 * For pull it also keeps, by key, the MD5s of the bucket's copies that the
 * file matched (pulled, or found the same), the last SYNCED_KEPT of them: a
 * file whose bytes are none of those was changed here (by hand, or by `felt
 * dev`'s title editor), and pull keeps it rather than overwrite it. A file put
 * back to an older copy (`git checkout -- content/`) is one of them, and the
 * bucket's copy wins. Without the record (a new runner, a first pull) the
 * bucket's copy wins, as it always did.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile, readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../shared/atomicWrite.ts';
import { FeltError } from '../shared/errors.ts';
import { cacheFolderOf } from '../shared/paths.ts';
import { md5Base64 } from './storage/checksum.ts';

// 3 added the inode and a second stamp: entries of format 1 are dropped (one full hash, then cached again).
const FORMAT = 'felt-checksums/3';
const STAMPS_KEPT = 2;
const RACY_MS = 2000;
/** Bucket copies remembered per file: a checkout of content/ a few nights old still matches one. */
const SYNCED_KEPT = 8;

/** What the cache compares: a file's stat(), the fields that change when its bytes may have. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

type Stamp = [size: number, mtimeMs: number, inode: number, md5: string];
/** The newest stamps first, by key ("locale/slug" for pull, the object name for deploy). */
type Entries = Record<string, Stamp[]>;

export class LocalChecksums {
  /** Files read and hashed (not answered by the cache) since open(). */
  hashed = 0;
  private readonly next: Entries = {};
  /** Key → the MD5s of the bucket's copies the file matched, newest first; carried over for the keys this run does not visit. */
  private readonly synced: Record<string, string[]>;

  private constructor(
    private readonly file: string,
    private readonly previous: Entries,
    synced: Record<string, string[]>,
  ) {
    this.synced = { ...synced };
  }

  /** Pull's cache of a content folder lives beside it, in .felt-cache/ (where the build keeps its own). */
  static open(contentDir: string): Promise<LocalChecksums> {
    // content/ and content.dev/ (pull --env dev) hold the same locale/slug names: each keeps its own file.
    const folderName = path.basename(path.resolve(contentDir));
    return LocalChecksums.at(path.join(cacheFolderOf(contentDir), folderName === 'content' ? 'checksums.json' : `checksums-${folderName}.json`));
  }

  /**
   * Deploy's cache of a dist/ link, in the project's .felt-cache/. Keyed by the link's
   * full path: dist/en_US and dist/ru_RU (or two projects' dist/) must not share entries.
   */
  static forDist(contentDir: string, distDir: string): Promise<LocalChecksums> {
    const dist = path.resolve(distDir);
    const tag = createHash('sha1').update(dist).digest('hex').slice(0, 10);
    return LocalChecksums.at(path.join(cacheFolderOf(contentDir), `deploy-checksums-${path.basename(dist)}-${tag}.json`));
  }

  private static async at(file: string): Promise<LocalChecksums> {
    const parsed = await readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as { format?: unknown; entries?: unknown; synced?: unknown })
      .catch(() => undefined);
    const current = parsed?.format === FORMAT;
    const entries = current && parsed.entries && typeof parsed.entries === 'object' ? (parsed.entries as Entries) : {};
    const synced = current && parsed.synced && typeof parsed.synced === 'object' ? (parsed.synced as Record<string, string[]>) : {};
    return new LocalChecksums(file, entries, synced);
  }

  /** The keys the cache knew when it was opened (for deploy: the names of the release it deployed last). */
  knownKeys(): string[] {
    return Object.keys(this.previous);
  }

  /** The MD5 (base64) of `file`, from the cache when its stamp matches, else read and hashed. */
  async md5Of(key: string, file: string, stamp?: FileStamp): Promise<string> {
    const info = stamp ?? (await stat(file));
    return this.cached(key, info) ?? this.hash(key, file, info);
  }

  /**
   * The MD5s of many files at once, in order: those the cache answers without a promise each (at
   * 150,000 files of a release, or 100,000 articles, the promises and the pool cost more than the
   * lookups), the others read and hashed in parallel.
   */
  async md5sOf(files: readonly { key: string; file: string; stamp: FileStamp }[]): Promise<string[]> {
    const sums: string[] = [];
    const misses: number[] = [];
    files.forEach(({ key, stamp }, i) => {
      const known = this.cached(key, stamp);
      if (known === undefined) misses.push(i);
      else sums[i] = known;
    });
    const limit = pLimit(16);
    await Promise.all(
      misses.map((i) =>
        limit(async () => {
          const { key, file, stamp } = files[i]!;
          sums[i] = await this.hash(key, file, stamp);
        }),
      ),
    );
    return sums;
  }

  /**
   * slug → MD5 of every `{slug}{extension}` in a folder; `group` names the folder's entries in the cache ("en_US", "images/en_US").
   * One stat after another, synchronously: for 33,000 articles a locale, a third of the time of a promise each.
   */
  async folder(folder: string, group: string, extension = '.md'): Promise<Map<string, string>> {
    const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith(extension));
    const files = names.map((name) => {
      const file = path.join(folder, name);
      const info = statSync(file);
      // A folder named like an article (or a socket, a FIFO) cannot be hashed or replaced by a pulled file: said as
      // such, not as the EISDIR of reading it ("unexpected failure").
      if (!info.isFile())
        throw new FeltError('BAD_PATH', `found a folder or other non-file where a ${extension} file should be`, {
          file,
          hint: 'move it out of the content folder, then run the same command again',
        });
      const { size, mtimeMs, ino } = info;
      return { key: `${group}/${name.slice(0, -extension.length)}`, file, stamp: { size, mtimeMs, ino } };
    });
    const sums = await this.md5sOf(files);
    return new Map(names.map((name, i) => [name.slice(0, -extension.length), sums[i]!]));
  }

  /** The cached MD5 when the stamp matches one of the key's (and it is kept for the next run), else undefined. */
  private cached(key: string, info: FileStamp): string | undefined {
    const stamps = this.previous[key];
    if (!stamps) return undefined;
    const hit = stamps.find((s) => s[0] === info.size && s[1] === info.mtimeMs && s[2] === info.ino);
    if (!hit) return undefined;
    this.next[key] = hit === stamps[0] ? stamps : [hit, ...stamps.filter((s) => s !== hit)].slice(0, STAMPS_KEPT);
    return hit[3];
  }

  private async hash(key: string, file: string, info: FileStamp): Promise<string> {
    const md5 = md5Base64(await readFile(file));
    this.hashed++;
    this.remember(key, info, md5);
    return md5;
  }

  /**
   * For a writer's `beforeRename` (writeFileAtomic): dates the new file before the racy window, so the
   * cache remembers it at once instead of reading it again the next time. Safe where a fresh mtime
   * is not: any later change to the file gets a newer mtime than this one, on any clock resolution.
   * Without it a pull of 100,000 articles (a runner without cache, or a restore from the packed
   * state) remembered none, and the next night read and hashed every one of them.
   */
  static async settle(temp: string): Promise<void> {
    const now = Date.now();
    await utimes(temp, now / 1000, (now - RACY_MS - 1000) / 1000);
  }

  /** A file pull has just written with bytes of this MD5: the bucket's copy, which it now matches. */
  async wrote(file: string, group: string, slug: string, md5: string): Promise<void> {
    this.remember(`${group}/${slug}`, await stat(file), md5);
    this.matches(group, slug, md5);
  }

  /** A local file found to hold the bucket's copy (of this MD5). */
  matches(group: string, slug: string, md5: string): void {
    const key = `${group}/${slug}`;
    const known = Array.isArray(this.synced[key]) ? this.synced[key] : [];
    if (known[0] !== md5) this.synced[key] = [md5, ...known.filter((m) => m !== md5)].slice(0, SYNCED_KEPT);
  }

  /**
   * Whether a local file of this MD5 was changed here: it is none of the bucket's copies the file matched. False
   * when there is no record of any (a first pull, a new runner).
   */
  changedHere(group: string, slug: string, md5: string): boolean {
    const known = this.synced[`${group}/${slug}`];
    return Array.isArray(known) && known.length > 0 && !known.includes(md5);
  }

  /** A file pull removed: `group` as for folder() ("en_US", "images/en_US"). */
  forget(group: string, slug: string): void {
    delete this.next[`${group}/${slug}`];
    delete this.synced[`${group}/${slug}`];
  }

  /** Keeps the entries of the files seen or written by this run, nothing else, and what each file last matched. */
  async save(): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify({ format: FORMAT, entries: this.next, synced: this.synced }));
  }

  private remember(key: string, info: FileStamp, md5: string): void {
    const older = this.previous[key] ?? [];
    if (Date.now() - info.mtimeMs < RACY_MS) {
      if (older.length) this.next[key] = older.slice(0, STAMPS_KEPT);
      else delete this.next[key];
    } else this.next[key] = [[info.size, info.mtimeMs, info.ino, md5] as Stamp, ...older].slice(0, STAMPS_KEPT);
  }
}
