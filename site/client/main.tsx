/**
 * The browser runtime's entry. The page arrives complete from the server;
 * this takes over internal links (client-side navigation and prefetch) and
 * registers the service worker. The interactive islands (header menu and
 * search, copy-link buttons) hydrate with the shared data of
 * /page-data/sq/d/{hash}.json on the reader's first interaction
 * (runtime/wake.ts); the search chunk loads when the search box is first used.
 */
import type { HeaderRuntime } from '../islands/types.ts';
import { deployedBuild, shouldReloadFor } from './navigation/buildHash.ts';
import { PageLoader } from './navigation/pageData.ts';
import { Prefetcher, prefetchAllowed } from './navigation/prefetch.ts';
import { Router } from './navigation/router.ts';
import { chunkNameOf, loadChunk } from './runtime/chunks.ts';
import { registerServiceWorker } from './runtime/serviceWorker.ts';
import { loadStaticQuery } from './runtime/staticQuery.ts';
import { firstInteraction, holdClicks, prefetchWhenIdle } from './runtime/wake.ts';

const runtime: HeaderRuntime = {
  loadSearch: () => import('./search/index.ts').then((module) => module.searchModule),
};

/** Page kinds whose chunk runs as the page starts. */
const EAGER_KINDS = new Set(['search']);

async function start(): Promise<void> {
  const header = document.getElementById('site-header');
  const main = document.getElementById('main');
  if (!header?.dataset.sq || !main) return;
  const data = await loadStaticQuery(header.dataset.sq);
  const loader = new PageLoader();
  const prefetcher = prefetchAllowed() ? new Prefetcher(loader) : undefined;
  const router = new Router({ data, loader, onRendered: (root) => prefetcher?.watch(root) });
  router.start();
  prefetcher?.watch(document);
  registerServiceWorker();
  prefetchWhenIdle((header.dataset.islands ?? '').split(' ').filter(Boolean));
  document.documentElement.dataset.feltReady = 'true';

  // The search page's results are its content: its chunk runs now, not on the first interaction.
  const eager = EAGER_KINDS.has(main.dataset.kind ?? '');
  const startRenders = router.renders;
  if (eager) {
    void loadChunk(chunkNameOf(main.dataset.kind ?? '')).then(
      (chunk) => chunk && router.renders === startRenders && router.adoptIslands(chunk.hydrate(main, data)),
      (error: unknown) => console.error(error),
    );
  }

  void firstInteraction().then(async () => {
    const release = holdClicks(() => [header, ...main.querySelectorAll('[data-island]')]);
    try {
      const first = router.renders;
      const [{ hydrateHeader }, chunk] = await Promise.all([
        import('./islands/header.tsx'),
        (eager ? Promise.resolve(undefined) : loadChunk(chunkNameOf(main.dataset.kind ?? ''))).catch((error: unknown) => {
          console.error(error);
          return undefined;
        }),
      ]);
      hydrateHeader(header, data.header, runtime);
      // A page the router rendered meanwhile hydrated its own islands.
      if (router.renders === first && chunk) router.adoptIslands(chunk.hydrate(main, data));
      document.documentElement.dataset.feltHydrated = 'true';
    } finally {
      release();
    }
  });
  // A page from an older build (a cache, an open tab): load it again, once.
  if (shouldReloadFor(await deployedBuild())) location.reload();
}

start().catch((error: unknown) => console.error(error));
