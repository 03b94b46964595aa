/**
 * A folder that behaves as a bucket: objects are files under
 * {root}/{bucket}/{name}, and what GCS keeps beside an object (content type,
 * cache control, metadata, checksums, generation) is kept in
 * {root}/.meta/{bucket}/{name}.json. Writes are atomic; checksums are
 * recomputed whenever the sidecar does not describe the file as it is now.
 */
import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import { removeLeftoverTemporaries, TEMP_MARK, writeFileAtomic } from '../../shared/atomicWrite.ts';
import { duringStage, type Stage } from '../../shared/stageErrors.ts';
import { crc32cBase64, md5Base64 } from './checksum.ts';
import { notFound, objectTooLarge, preconditionFailed } from './errors.ts';
import { compareNames, inRange } from './nameRanges.ts';
import type { Bucket, NameRange, ObjectInfo, PatchOptions, ReadOptions, Storage, WriteOptions } from './types.ts';
import { readInspected } from '../../shared/inputFile.ts';

interface Sidecar extends ObjectInfo {
  mtimeMs: number;
}

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  constructor(readonly root: string) {}

  bucket(name: string): Bucket {
    return new LocalBucket(this.root, checkBucketName(name));
  }

  async listBuckets(): Promise<string[]> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  }
}

function checkBucketName(name: string): string {
  if (!/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/.test(name)) {
    throw new FeltError('STORAGE_BAD_BUCKET', `"${name}" is not a valid bucket name`, {
      hint: 'use 3 to 222 lowercase letters, digits, dots, hyphens and underscores, starting and ending with a letter or digit',
    });
  }
  return name;
}

/** Object names become paths: refuse anything that could leave the bucket folder. */
function checkObjectName(name: string): string {
  const parts = name.split('/');
  if (
    !name ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith(TEMP_MARK))
  ) {
    throw new FeltError('STORAGE_BAD_NAME', `"${name}" is not an object name this bucket accepts`);
  }
  return name;
}

/** Serialises writes to one object inside this process, so preconditions hold. */
const locks = new Map<string, Promise<unknown>>();
async function withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = locks.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

class LocalBucket implements Bucket {
  readonly location: string;
  private readonly dir: string;
  private readonly metaDir: string;

  constructor(
    root: string,
    readonly name: string,
  ) {
    this.dir = path.join(root, name);
    this.metaDir = path.join(root, '.meta', name);
    this.location = this.dir;
  }

  async exists(): Promise<boolean> {
    return (await stat(this.dir).catch(() => undefined))?.isDirectory() ?? false;
  }

  async create(): Promise<void> {
    await duringStage(this.writing, () => mkdir(this.dir, { recursive: true }));
  }

  /** A storage call's stage: the buckets folder is the operator's (storage.localRoot in content/site.json). */
  private get writing(): Stage {
    return { name: `writing to ${this.location}`, namedPaths: true, pathHint: 'check storage.localRoot in content/site.json, or use --storage gcs' };
  }

  async list(prefix: string, range?: NameRange): Promise<ObjectInfo[]> {
    // Only the folder the prefix names is walked: listing articles/en_US/ does not read dist/.
    const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/') + 1) : '';
    if (base) checkObjectName(base.slice(0, -1));
    const names = await walk(path.join(this.dir, base), base);
    const chosen = names.filter((n) => n.startsWith(prefix) && (!range || inRange(n, range))).sort(compareNames);
    const infos: ObjectInfo[] = [];
    for (const name of chosen) {
      const info = this.describe(name);
      if (info) infos.push(info);
    }
    return infos;
  }

  async stat(name: string): Promise<ObjectInfo | undefined> {
    return this.describe(name);
  }

  /**
   * An object as it is now, or undefined. Synchronous: a listing describes every object (150,000 of
   * a large site's hosting bucket), and a stat and a sidecar read one after the other cost a fifth
   * of what two promises each did.
   */
  private describe(name: string): ObjectInfo | undefined {
    const file = this.file(name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile()) return undefined;
    const sidecar = this.readSidecar(name);
    if (sidecar && sidecar.mtimeMs === st.mtimeMs && sidecar.size === st.size) return strip(sidecar);
    // The file was changed behind the sidecar's back (or has none): describe it as it is.
    const data = readFileSync(file);
    const info: ObjectInfo = {
      ...(sidecar ? strip(sidecar) : { contentType: 'application/octet-stream', metadata: {} }),
      name,
      size: data.length,
      md5: md5Base64(data),
      crc32c: crc32cBase64(data),
      generation: String(Math.floor(st.mtimeMs * 1000)),
    };
    return info;
  }

  async read(name: string, { maxBytes }: ReadOptions): Promise<Buffer> {
    const where = `${this.location}/${name}`;
    // At most maxBytes + 1 bytes, however large the file has grown since it was listed.
    const read = await readInspected(this.file(name), 0, maxBytes);
    if (read.kind === 'read') return read.bytes;
    if (read.kind === 'missing') throw notFound(where);
    if (read.message.startsWith('cannot be read')) throw new FeltError('STORAGE_FAILED', `${where}: ${read.message}`);
    throw objectTooLarge(where, maxBytes);
  }

  async write(name: string, data: Buffer, options: WriteOptions): Promise<ObjectInfo> {
    return duringStage(this.writing, () => this.writeLocked(name, data, options));
  }

  private async writeLocked(name: string, data: Buffer, options: WriteOptions): Promise<ObjectInfo> {
    return withLock(this.file(name), async () => {
      await this.checkGeneration(name, options.ifGenerationMatch);
      const generation = newGeneration();
      const info: ObjectInfo = {
        name,
        size: data.length,
        md5: md5Base64(data),
        crc32c: crc32cBase64(data),
        generation,
        contentType: options.contentType,
        ...(options.contentEncoding ? { contentEncoding: options.contentEncoding } : {}),
        cacheControl: options.cacheControl,
        metadata: { ...(options.metadata ?? {}) },
      };
      // An object and its metadata appear together, as in GCS: the sidecar is
      // written (with the staged file's mtime, which the rename keeps) before
      // the data takes its name. A process killed in between leaves a stray
      // temporary file, never an object without its metadata, which a rerun of
      // generate would not recognise as done and would write again (issue 6).
      await writeFileAtomic(this.file(name), data, async (temp) => this.writeSidecar(name, info, (await stat(temp)).mtimeMs));
      return info;
    });
  }

  async copyTo(name: string, target: Bucket, targetName: string, options: { ifGenerationMatch?: string | number } = {}): Promise<ObjectInfo> {
    const source = await this.stat(name);
    if (!source) throw notFound(`${this.location}/${name}`);
    // A copy, as GCS makes one on its side: the bytes are not felt's to read, so no read limit applies.
    const data = await readFile(this.file(name)).catch(() => {
      throw notFound(`${this.location}/${name}`);
    });
    return target.write(targetName, data, {
      contentType: source.contentType ?? 'application/octet-stream',
      contentEncoding: source.contentEncoding,
      cacheControl: source.cacheControl,
      metadata: source.metadata,
      ifGenerationMatch: options.ifGenerationMatch,
    });
  }

  async patch(name: string, options: PatchOptions): Promise<ObjectInfo> {
    return withLock(this.file(name), async () => {
      const info = await this.stat(name);
      if (!info) throw notFound(`${this.location}/${name}`);
      const st = await stat(this.file(name));
      const next: ObjectInfo = {
        ...info,
        contentType: options.contentType ?? info.contentType,
        cacheControl: options.cacheControl ?? info.cacheControl,
        metadata: { ...info.metadata, ...(options.metadata ?? {}) },
      };
      await this.writeSidecar(name, next, st.mtimeMs);
      return next;
    });
  }

  async delete(name: string, options: { ifGenerationMatch?: string | number } = {}): Promise<void> {
    await withLock(this.file(name), async () => {
      await this.checkGeneration(name, options.ifGenerationMatch);
      await rm(this.file(name), { force: true });
      await rm(this.sidecarFile(name), { force: true });
    });
  }

  /**
   * What killed writers left in the folder of `prefix` (issue 17): temporary files of dead processes,
   * here and beside the sidecars, and sidecars whose object never took its name (a write killed
   * between the two). A sidecar whose object is still being written by a live process is kept.
   */
  async removeLeftovers(prefix: string): Promise<string[]> {
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    if (folder) checkObjectName(folder.slice(0, -1));
    const dataDir = path.join(this.dir, folder);
    const metaDir = path.join(this.metaDir, folder);
    const removed = [
      ...(await removeLeftoverTemporaries(dataDir)).map((n) => folder + n),
      ...(await removeLeftoverTemporaries(metaDir)).map((n) => `.meta/${folder}${n}`),
    ];
    const writing = (await readdir(dataDir).catch(() => [] as string[])).filter((n) => n.startsWith(TEMP_MARK));
    for (const entry of await readdir(metaDir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || !entry.name.endsWith('.json') || entry.name.startsWith(TEMP_MARK)) continue;
      const object = entry.name.slice(0, -'.json'.length);
      if (writing.some((t) => t.endsWith(`-${object}.tmp`))) continue;
      if ((await stat(path.join(dataDir, object)).catch(() => undefined))?.isFile()) continue;
      await rm(path.join(metaDir, entry.name), { force: true });
      removed.push(`.meta/${folder}${entry.name}`);
    }
    return removed;
  }

  private async checkGeneration(name: string, expected: string | number | undefined): Promise<void> {
    if (expected === undefined) return;
    const current = await this.stat(name);
    const actual = current?.generation ?? '0';
    if (String(expected) !== actual) throw preconditionFailed(`${this.location}/${name}`);
  }

  private file(name: string): string {
    return path.join(this.dir, checkObjectName(name));
  }

  private sidecarFile(name: string): string {
    return path.join(this.metaDir, `${checkObjectName(name)}.json`);
  }

  private readSidecar(name: string): Sidecar | undefined {
    try {
      return JSON.parse(readFileSync(this.sidecarFile(name), 'utf8')) as Sidecar;
    } catch {
      return undefined;
    }
  }

  private async writeSidecar(name: string, info: ObjectInfo, mtimeMs: number): Promise<void> {
    await writeFileAtomic(this.sidecarFile(name), JSON.stringify({ ...info, mtimeMs }));
  }
}

function strip(sidecar: Sidecar): ObjectInfo {
  const { mtimeMs: _mtime, ...info } = sidecar;
  return info;
}

let lastGeneration = 0;
/** Microseconds since the epoch, strictly increasing within the process, as GCS generations are. */
function newGeneration(): string {
  const now = Date.now() * 1000 + randomInt(0, 999);
  lastGeneration = Math.max(now, lastGeneration + 1);
  return String(lastGeneration);
}

async function walk(dir: string, prefix: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(TEMP_MARK)) continue;
    const name = prefix + entry.name;
    if (entry.isDirectory()) names.push(...(await walk(path.join(dir, entry.name), `${name}/`)));
    else if (entry.isFile()) names.push(name);
  }
  return names;
}
