/**
 * The night's state kept in the bucket itself (issue 12), for a runner that
 * starts with nothing (the CI cache expired or was evicted): one packed copy
 * of a locale's articles, `state/articles-{locale}.pack.gz`, and a small
 * manifest beside it, `state/articles-{locale}.json`, naming the pack's MD5,
 * how many articles it holds and the newest object generation among them.
 * A fresh runner fetches the manifest and the pack (two requests) and takes
 * from the pack every article whose MD5 equals the listing's; only the
 * difference is downloaded one by one.
 *
 * The pack is rewritten only when it has fallen behind by more than a few
 * percent of the locale (objects newer than the pack, or gone from the
 * bucket), so a warm night uploads nothing but its own new articles; a
 * restore then downloads at most that few percent singly.
 *
 * Nothing here decides what is correct: every article taken from a pack has
 * the listing's MD5, and a missing or damaged pack or manifest only means the
 * slow path (one GET per article), announced in one `felt:` line. So does
 * one larger than it can be: a manifest over LIMITS.stateRecordBytes, a pack
 * (read, or unpacked) over what its manifest's articles can fill (packBound).
 */
import { constants as bufferConstants } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { FeltError } from '../shared/errors.ts';
import { LIMITS, formatBytes } from '../shared/limits.ts';
import { md5Base64 } from './storage/checksum.ts';
import { readOrRefuse } from './storage/errors.ts';
import type { Bucket, ObjectInfo } from './storage/types.ts';

const PACK_FORMAT = 'felt-articles-pack/1';

const manifestSchema = z.object({
  format: z.literal('felt-state/1'),
  locale: z.string(),
  pack: z.string(),
  md5: z.string().min(1),
  articles: z.number().int().nonnegative(),
  /** The newest generation among the packed objects: anything newer was written after the pack. */
  maxGeneration: z.string().regex(/^\d+$/),
  written: z.string(),
});
export type SnapshotManifest = z.infer<typeof manifestSchema>;

/** The pack's index line beyond its entries ({"format":…,"locale":…,"entries":[…]} and the newline). */
const INDEX_HEAD_BYTES = 1024;
/** One entry of the index, ["slug","md5",size]: a slug of at most LIMITS.slugChars, an MD5 of 24, a size of 7 digits. */
const INDEX_ENTRY_BYTES = 512;

/**
 * The most a pack can unpack to: its manifest's articles, each at most LIMITS.articleBytes and its index entry,
 * and the index's head; never more than a Buffer holds. Its compressed bytes are bounded alike: gzip adds at most
 * about 0.03 % to incompressible data, and a few bytes of header.
 */
export function packBound(manifest: Pick<SnapshotManifest, 'articles'>): { unpacked: number; packed: number } {
  const unpacked = manifest.articles * (LIMITS.articleBytes + INDEX_ENTRY_BYTES) + INDEX_HEAD_BYTES;
  return {
    unpacked: Math.min(bufferConstants.MAX_LENGTH, unpacked),
    packed: Math.min(bufferConstants.MAX_LENGTH, unpacked + Math.ceil(unpacked / 1024) + INDEX_HEAD_BYTES),
  };
}

/** A pull with fewer downloads than this does not bother with the pack (a warm night: its new articles only). */
export const RESTORE_ABOVE = 50;

export function manifestName(locale: string): string {
  return `state/articles-${locale}.json`;
}

function packName(locale: string): string {
  return `state/articles-${locale}.pack.gz`;
}

/** The manifest, undefined when there is none; a damaged one is a FeltError the caller reports and moves past. */
export async function readManifest(bucket: Bucket, locale: string): Promise<SnapshotManifest | undefined> {
  const name = manifestName(locale);
  const info = await bucket.stat(name);
  if (!info) return undefined;
  const tooLarge = () => stateProblem(bucket, name, `is larger than the limit of ${formatBytes(LIMITS.stateRecordBytes)} for a manifest`);
  if (info.size > LIMITS.stateRecordBytes) throw tooLarge();
  const text = (await readOrRefuse(bucket, name, LIMITS.stateRecordBytes, tooLarge)).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw stateProblem(bucket, name, 'is not JSON');
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success || parsed.data.locale !== locale) {
    const issue = parsed.success ? { path: ['locale'], message: `is ${parsed.data.locale}` } : parsed.error.issues[0]!;
    throw stateProblem(bucket, name, `field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** slug → bytes of every packed article whose MD5 is the one wanted (the bucket's current one). */
export async function readPack(bucket: Bucket, manifest: SnapshotManifest, wanted: ReadonlyMap<string, string>, listed: number): Promise<Map<string, Buffer>> {
  // The manifest's count, but no more than the bucket lists and a stale pack's allowance: whoever can write the
  // bucket writes the manifest too, and a count of millions would lift the bound to gigabytes.
  const allowance = staleAllowance(listed);
  const articles = Math.min(manifest.articles, listed + allowance);
  const bound = packBound({ articles });
  const holds = `more than ${articles.toLocaleString('en')} articles can fill (its manifest's count, at most the ${listed.toLocaleString('en')} listed and ${allowance.toLocaleString('en')} more)`;
  const packed = await readOrRefuse(bucket, manifest.pack, bound.packed, () =>
    stateProblem(bucket, manifest.pack, `is larger than ${formatBytes(bound.packed)}, ${holds}`),
  );
  if (md5Base64(packed) !== manifest.md5) throw stateProblem(bucket, manifest.pack, 'does not have the MD5 its manifest names');
  let data: Buffer;
  try {
    // Unpacked no further than the manifest allows: a small pack can unpack to gigabytes (a gzip bomb).
    data = gunzipSync(packed, { maxOutputLength: bound.unpacked });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw stateProblem(bucket, manifest.pack, `unpacks to more than ${formatBytes(bound.unpacked)}, ${holds}`);
    throw stateProblem(bucket, manifest.pack, 'is not gzip');
  }
  const newline = data.indexOf(10);
  let index: { format?: unknown; entries?: unknown };
  try {
    index = JSON.parse(data.subarray(0, newline).toString('utf8')) as typeof index;
  } catch {
    throw stateProblem(bucket, manifest.pack, 'has no readable index');
  }
  if (index.format !== PACK_FORMAT || !Array.isArray(index.entries)) throw stateProblem(bucket, manifest.pack, `is not a ${PACK_FORMAT}`);
  const found = new Map<string, Buffer>();
  let at = newline + 1;
  for (const entry of index.entries as [string, string, number][]) {
    const [slug, md5, size] = entry;
    const bytes = data.subarray(at, at + size);
    at += size;
    // The pack's own MD5 is checked above; each article's is checked again by the pull that writes it.
    if (wanted.get(slug) === md5) found.set(slug, bytes);
  }
  return found;
}

/**
 * Whether the pack has fallen behind the bucket's listing by more than
 * max(200, 2 %) articles: objects written after it, plus packed ones gone since.
 */
export function isStale(manifest: SnapshotManifest | undefined, listing: readonly ObjectInfo[]): boolean {
  if (!manifest) return true;
  const newest = BigInt(manifest.maxGeneration);
  const newer = listing.filter((o) => /^\d+$/.test(o.generation) && BigInt(o.generation) > newest).length;
  const gone = Math.max(0, manifest.articles - (listing.length - newer));
  return newer + gone > staleAllowance(listing.length);
}

/** How far a pack may be behind a listing of `listed` articles and still be used: max(200, 2 %). */
function staleAllowance(listed: number): number {
  return Math.max(200, Math.ceil(listed * 0.02));
}

/**
 * Packs the local copies of the listed articles (each checked against the
 * listing's MD5 first: a locally edited file is never packed) and writes the
 * pack, then the manifest, so a manifest never names a pack not yet written.
 */
export async function writeSnapshot(
  bucket: Bucket,
  locale: string,
  listing: readonly ObjectInfo[],
  fileOf: (object: ObjectInfo) => string,
): Promise<SnapshotManifest> {
  const entries: [string, string, number][] = [];
  const bodies: Buffer[] = [];
  let maxGeneration = 0n;
  for (const object of [...listing].sort((a, b) => a.name.localeCompare(b.name))) {
    const bytes = await readFile(fileOf(object)).catch(() => undefined);
    if (!bytes || md5Base64(bytes) !== object.md5) continue;
    const slug = object.name.slice(object.name.lastIndexOf('/') + 1, -'.md'.length);
    entries.push([slug, object.md5, bytes.length]);
    bodies.push(bytes);
    if (/^\d+$/.test(object.generation) && BigInt(object.generation) > maxGeneration) maxGeneration = BigInt(object.generation);
  }
  const pack = gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify({ format: PACK_FORMAT, locale, entries })}\n`), ...bodies]), { level: 6 });
  const name = packName(locale);
  await bucket.write(name, pack, { contentType: 'application/gzip', resumable: pack.length > 8 * 1024 * 1024 });
  const manifest: SnapshotManifest = {
    format: 'felt-state/1',
    locale,
    pack: name,
    md5: md5Base64(pack),
    articles: entries.length,
    maxGeneration: String(maxGeneration),
    written: new Date().toISOString(),
  };
  await bucket.write(manifestName(locale), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), { contentType: 'application/json' });
  return manifest;
}

function stateProblem(bucket: Bucket, name: string, what: string): FeltError {
  return new FeltError('STATE_UNUSABLE', `${bucket.location}/${name} ${what}`, {
    hint: 'downloading the articles one by one instead; the next `felt pull --snapshot` rewrites it',
  });
}
