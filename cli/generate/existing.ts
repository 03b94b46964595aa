/**
 * Reads what already exists before a run: every article's slug and title
 * in content/articles/{locale}/ and in the dev bucket (titles come from
 * object metadata, so no article is downloaded), and which slots of this run
 * the bucket already holds.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { readInput } from '../../shared/inputFile.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { ContentLocale } from '../../shared/types.ts';
import { splitFrontmatter } from '../../site/content/frontmatter.ts';
import { toCamelCase } from '../../shared/names.ts';
import type { Bucket } from '../storage/types.ts';
import { Registry } from './registry.ts';

export const META = { run: 'feltRun', slot: 'feltSlot', title: 'feltTitle', category: 'feltCategory', model: 'feltModel' } as const;

export interface Existing {
  registry: Registry;
  /** Slot index → object name, for the slots of `runId` already stored. */
  done: Map<number, string>;
}

export async function scanExisting(contentDir: string, locale: ContentLocale, bucket: Bucket | undefined, runId: string): Promise<Existing> {
  const registry = new Registry();
  const done = new Map<number, string>();
  await scanContent(contentDir, path.join(contentDir, 'articles', locale), registry);
  if (bucket && (await bucket.exists())) {
    for (const object of await bucket.list(`articles/${locale}/`)) {
      const slug = path.posix.basename(object.name, '.md');
      registry.add(slug, object.metadata[META.title], object.metadata[META.category]);
      if (object.metadata[META.run] === runId) done.set(Number(object.metadata[META.slot]), object.name);
    }
  }
  return { registry, done };
}

async function scanContent(contentDir: string, folder: string, registry: Registry): Promise<void> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.md')).sort();
  const limit = pLimit(32);
  const found = await Promise.all(
    names.map((name) =>
      limit(async () => {
        const slug = name.slice(0, -3);
        // What the loader would refuse (a folder, a FIFO, a file over its limit) counts as an article without a title.
        const read = await readInput(path.join(folder, name), { root: contentDir, maxBytes: LIMITS.articleBytes });
        if (read.kind !== 'read') return { slug, title: undefined, category: undefined };
        try {
          const { data } = splitFrontmatter(read.bytes.toString('utf8'));
          const entities = Array.isArray(data.entities) ? (data.entities as { category?: unknown }[]) : [];
          const category = typeof entities[0]?.category === 'string' ? toCamelCase(entities[0].category) : undefined;
          return { slug, title: typeof data.title === 'string' ? data.title : undefined, category };
        } catch {
          return { slug, title: undefined, category: undefined };
        }
      }),
    ),
  );
  for (const { slug, title, category } of found) registry.add(slug, title, category);
}
