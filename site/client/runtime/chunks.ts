/**
 * The code a page kind needs after its HTML is in place (the "component
 * chunk" named by componentChunkName in page data). The article has
 * islands of its own (the copy-link buttons), the search page its results
 * (they run at once, not on the first interaction: main.tsx); the other
 * kinds need none.
 */
import type { StaticQueryData } from '../../islands/types.ts';

export interface PageChunk {
  /** Hydrates the page's islands under root; returns what undoes it. */
  hydrate(root: ParentNode, data: StaticQueryData): () => void;
}

const NONE = null;
const CHUNKS: Record<string, (() => Promise<PageChunk>) | null> = {
  'component---article': () => import('../pages/article.tsx'),
  'component---search': () => import('../pages/search.tsx'),
  'component---home': NONE,
  'component---category': NONE,
  'component---subcategory': NONE,
  'component---authors': NONE,
  'component---author': NONE,
  'component---info': NONE,
  'component---sitemap': NONE,
  'component---notFound': NONE,
  'component---serverError': NONE,
};

/** SPEC section 8: a chunk the runtime does not know is an error naming it. */
export class MissingChunkError extends Error {
  constructor(readonly chunk: string) {
    super(`felt: missing component chunk "${chunk}"`);
  }
}

/** SPEC section 8: a chunk that would not load; the router loads the page in full. */
export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    cause: unknown,
  ) {
    super(`felt: component chunk "${chunk}" failed to load`, { cause });
  }
}

export function chunkNameOf(kind: string): string {
  return `component---${kind}`;
}

export async function loadChunk(name: string): Promise<PageChunk | undefined> {
  if (!(name in CHUNKS)) throw new MissingChunkError(name);
  const loader = CHUNKS[name];
  if (!loader) return undefined;
  try {
    return await loader();
  } catch (error) {
    throw new ChunkLoadError(name, error);
  }
}
