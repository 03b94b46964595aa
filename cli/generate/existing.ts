/**
 * Reads what already exists before a run: every article's slug, title,
 * place (category, subcategory) and body signature in
 * content/articles/{locale}/ and in the dev bucket, and which slots of this
 * run the bucket already holds. Bucket articles are described by their
 * metadata, so none is downloaded, except once an article stored before
 * felt kept a signature in it.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { articleFolder } from '../../shared/paths.ts';
import pLimit from 'p-limit';
import { readInput } from '../../shared/inputFile.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { ContentLocale } from '../../shared/types.ts';
import { splitFrontmatter } from '../../site/content/frontmatter.ts';
import { toCamelCase } from '../../shared/names.ts';
import { isNotFound, readWithin } from '../storage/errors.ts';
import type { Bucket, ObjectInfo } from '../storage/types.ts';
import { Registry } from './registry.ts';
import { decodeSignature, encodeSignature, signatureOf, type Signature } from './similarity.ts';

export const META = {
  run: 'feltRun',
  slot: 'feltSlot',
  title: 'feltTitle',
  category: 'feltCategory',
  subcategory: 'feltSubcategory',
  model: 'feltModel',
  attempts: 'feltAttempts',
  /** The body's MinHash signature (similarity.ts), base64. */
  signature: 'feltMinhash',
  /** Estimated similarity to the nearest article of the locale when it was stored, and that article's slug. */
  similarity: 'feltSimilarity',
  nearest: 'feltNearest',
} as const;

export interface Existing {
  registry: Registry;
  /** Slot index → object name, for the slots of `runId` already stored. */
  done: Map<number, string>;
  /** Slugs this run stored: the planner counts coverage without them, so a rerun plans the same slots. */
  ofThisRun: Set<string>;
}

/** The BCP 47 tag a locale's text is lowercased with (tr_TR → tr-TR: İ → i, I → ı). */
export function languageTag(locale: ContentLocale): string {
  return locale.replace('_', '-');
}

interface Described {
  slug: string;
  title?: string;
  category?: string;
  subcategory?: string;
  signature?: Signature;
}

/**
 * `keepSignatures`: an article read because its metadata had no signature gets one (a metadata
 * patch, its bytes untouched), so it is read once, not every night. A dry run leaves the bucket alone.
 */
export async function scanExisting(
  contentDir: string,
  locale: ContentLocale,
  bucket: Bucket | undefined,
  runId: string,
  options: { keepSignatures?: boolean } = {},
): Promise<Existing> {
  const registry = new Registry(languageTag(locale));
  const done = new Map<number, string>();
  const ofThisRun = new Set<string>();
  const add = (d: Described) => registry.add(d.slug, d.title, d.category, { subcategory: d.subcategory, signature: d.signature });
  for (const described of await scanContent(contentDir, articleFolder(contentDir, locale), locale)) add(described);
  if (bucket && (await bucket.exists())) {
    const limit = pLimit(16);
    const objects = await bucket.list(`articles/${locale}/`);
    const described = await Promise.all(objects.map((object) => limit(() => describeObject(object, bucket, locale, options.keepSignatures ?? false))));
    for (const [i, object] of objects.entries()) {
      add(described[i]!);
      if (object.metadata[META.run] === runId) {
        done.set(Number(object.metadata[META.slot]), object.name);
        ofThisRun.add(described[i]!.slug);
      }
    }
  }
  return { registry, done, ofThisRun };
}

async function describeObject(object: ObjectInfo, bucket: Bucket, locale: ContentLocale, keepSignature: boolean): Promise<Described> {
  const slug = path.posix.basename(object.name, '.md');
  const meta = object.metadata;
  const fromMeta: Described = {
    slug,
    title: meta[META.title],
    category: meta[META.category],
    subcategory: meta[META.subcategory],
    signature: decodeSignature(meta[META.signature]),
  };
  if (fromMeta.signature || object.size > LIMITS.articleBytes) return fromMeta;
  // Stored before felt kept a signature (or edited by hand): read it once to compare its body too. One larger
  // than an article can be (its listing understated it) is described by its metadata, as one listed so, and so is
  // one deleted since the listing; any other failure (a 5xx, denied credentials) fails the scan: a check that
  // silently compared nothing would let a duplicate topic through.
  const bytes = await readWithin(bucket, object.name, LIMITS.articleBytes).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  const read = bytes && describeSource(slug, bytes.toString('utf8'), locale);
  if (keepSignature && read?.signature) {
    const metadata = {
      [META.signature]: encodeSignature(read.signature),
      ...(read.subcategory && !fromMeta.subcategory ? { [META.subcategory]: read.subcategory } : {}),
    };
    // Best effort: a refused patch only means the article is read again next time.
    await bucket.patch(object.name, { metadata }).catch(() => undefined);
  }
  return { ...read, ...definedOf(fromMeta), slug };
}

async function scanContent(contentDir: string, folder: string, locale: ContentLocale): Promise<Described[]> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.md')).sort();
  const limit = pLimit(32);
  return Promise.all(
    names.map((name) =>
      limit(async () => {
        const slug = name.slice(0, -3);
        // What the loader would refuse (a folder, a FIFO, a file over its limit) counts as an article without a title.
        const read = await readInput(path.join(folder, name), { root: contentDir, maxBytes: LIMITS.articleBytes });
        if (read.kind !== 'read') return { slug };
        return describeSource(slug, read.bytes.toString('utf8'), locale);
      }),
    ),
  );
}

function describeSource(slug: string, source: string, locale: ContentLocale): Described {
  try {
    const { data, body } = splitFrontmatter(source);
    const entities = Array.isArray(data.entities) ? (data.entities as { category?: unknown; subcategories?: { subcategory?: unknown }[] }[]) : [];
    const category = typeof entities[0]?.category === 'string' ? toCamelCase(entities[0].category) : undefined;
    const sub = Array.isArray(entities[0]?.subcategories) ? entities[0].subcategories[0]?.subcategory : undefined;
    return {
      slug,
      title: typeof data.title === 'string' ? data.title : undefined,
      category,
      subcategory: typeof sub === 'string' ? toCamelCase(sub) : undefined,
      signature: signatureOf(body, languageTag(locale)),
    };
  } catch {
    return { slug };
  }
}

function definedOf(described: Described): Partial<Described> {
  return Object.fromEntries(Object.entries(described).filter(([, v]) => v !== undefined));
}
