/**
 * The browser runtime's entry. The page arrives complete from the server;
 * this hydrates the interactive islands with the shared data of
 * /page-data/sq/d/{hash}.json, then takes over internal links (client-side
 * navigation and prefetch) and registers the service worker. The search
 * chunk loads only when the search box is first used.
 */
import { hydrateRoot } from 'react-dom/client';
import { Header } from '../islands/Header.tsx';
import type { HeaderRuntime } from '../islands/types.ts';
import { deployedBuild, shouldReloadFor } from './navigation/buildHash.ts';
import { PageLoader } from './navigation/pageData.ts';
import { Prefetcher, prefetchAllowed } from './navigation/prefetch.ts';
import { Router } from './navigation/router.ts';
import { chunkNameOf, loadChunk } from './runtime/chunks.ts';
import { registerServiceWorker } from './runtime/serviceWorker.ts';
import { loadStaticQuery } from './runtime/staticQuery.ts';

const runtime: HeaderRuntime = {
  loadSearch: () => import('./search/index.ts').then((module) => module.searchModule),
};

async function start(): Promise<void> {
  const header = document.getElementById('site-header');
  const main = document.getElementById('main');
  if (!header?.dataset.sq || !main) return;
  const data = await loadStaticQuery(header.dataset.sq);
  hydrateRoot(header, <Header {...data.header} runtime={runtime} />);
  const chunk = await loadChunk(chunkNameOf(main.dataset.kind ?? '')).catch((error: unknown) => {
    console.error(error);
    return undefined;
  });
  const undoIslands = chunk?.hydrate(main, data);

  const loader = new PageLoader();
  const prefetcher = prefetchAllowed() ? new Prefetcher(loader) : undefined;
  new Router({ data, loader, undoIslands, onRendered: (root) => prefetcher?.watch(root) }).start();
  prefetcher?.watch(document);
  registerServiceWorker();
  document.documentElement.dataset.feltReady = 'true';
  // A page from an older build (a cache, an open tab): load it again, once.
  if (shouldReloadFor(await deployedBuild())) location.reload();
}

start().catch((error: unknown) => console.error(error));
