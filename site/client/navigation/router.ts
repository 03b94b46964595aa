/**
 * Client-side navigation: internal links and back/forward render the next
 * page from its page data and the <main> of its HTML (pageData.ts) instead of
 * loading a new document. Whatever goes wrong falls back to what the browser
 * would do anyway: a full load.
 */
import { plainName } from '../../../shared/names.ts';
import type { StaticQueryData } from '../../islands/types.ts';
import { format } from '../../islands/types.ts';
import { ChunkLoadError, MissingChunkError, loadChunk } from '../runtime/chunks.ts';
import { rememberPage } from '../runtime/serviceWorker.ts';
import { deployedBuild, shouldReloadFor } from './buildHash.ts';
import { swapHead } from './head.ts';
import { pagePath, pageUrl, pageUrlOf } from './links.ts';
import { announcedName, Notices } from './notices.ts';
import type { LoadedPage, PageLoader } from './pageData.ts';
import { followedLink, refocusFollowed, rememberFollowed, type FollowedLink } from './returnFocus.ts';
import { ScrollMemory } from './scroll.ts';

export interface RouterOptions {
  data: StaticQueryData;
  loader: PageLoader;
  /** Called after every page the router renders (prefetch watches its links). */
  onRendered?: (main: HTMLElement) => void;
}

export class Router {
  private readonly scroll = new ScrollMemory();
  private readonly notices: Notices;
  private current: string;
  /** The query string of the page on screen: /search?q=a and /search?q=b are one page showing two things. */
  private currentSearch = location.search;
  private navigation = 0;
  private undoIslands: () => void = () => undefined;
  /** Pages rendered so far; 0 while the first page, the one the server sent, is on screen. */
  renders = 0;

  constructor(private readonly options: RouterOptions) {
    this.notices = new Notices(options.data.nav.slow);
    this.current = pagePath(new URL(location.href));
  }

  /** Takes over the islands of the page on screen, hydrated after the router started. */
  adoptIslands(undo: () => void): void {
    this.undoIslands = undo;
  }

  start(): void {
    document.addEventListener('click', (event) => this.onClick(event));
    addEventListener('popstate', () => this.onPop());
  }

  private onClick(event: MouseEvent): void {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = pageUrlOf(event.target);
    if (!url) return;
    // A fragment of the page on screen: the browser scrolls to it.
    if (pagePath(url) === this.current && url.search === location.search && url.hash) return;
    event.preventDefault();
    void this.navigate(url, 'push', followedLink(event.target));
  }

  private onPop(): void {
    const here = new URL(location.href);
    this.scroll.popped();
    if (pagePath(here) === this.current && here.search === this.currentSearch) return; // only the fragment changed
    // Back to an entry the browser loaded itself (an address the router does not take, "//host/x" among them): loaded
    // again as it was, never fetched as page data, whose paths would name another host.
    const url = pageUrl(here.href);
    if (!url) return location.reload();
    void this.navigate(url, 'pop');
  }

  /** `followed`: the link the reader followed, focused again when they come back to this page. */
  async navigate(url: URL, mode: 'push' | 'pop', followed?: FollowedLink): Promise<void> {
    const id = ++this.navigation;
    const path = pagePath(url);
    const done = this.notices.whileLoading();
    try {
      const [load, deployed] = await Promise.all([this.options.loader.load(path), deployedBuild()]);
      if (id !== this.navigation) return;
      if (load.type === 'full' || shouldReloadFor(deployed)) return fullLoad(url);
      const chunk = await loadChunk(load.page.data.componentChunkName);
      if (id !== this.navigation) return;
      if (mode === 'push') {
        rememberFollowed(followed);
        this.scroll.push(url.href);
      }
      this.render(load.page, chunk ? (main) => chunk.hydrate(main, this.options.data) : undefined);
      this.current = path;
      this.currentSearch = url.search;
      this.scroll.apply(mode, url.hash);
      this.afterRender(load.page, mode);
    } catch (error) {
      if (error instanceof MissingChunkError) console.error(error.message);
      else if (!(error instanceof ChunkLoadError)) console.error(error);
      if (id === this.navigation) fullLoad(url);
    } finally {
      done();
    }
  }

  private render(page: LoadedPage, hydrate?: (main: HTMLElement) => () => void): void {
    const main = document.getElementById('main')!;
    const context = page.data.result.pageContext;
    this.undoIslands();
    swapHead(page.head, context.head.title);
    main.replaceChildren(...document.importNode(page.main, true).childNodes);
    main.dataset.kind = context.kind;
    // The error pages carry no advertising (the server leaves the block out of their HTML; here it is kept for the next page).
    const newUrl = document.querySelector<HTMLElement>('.new-url');
    if (newUrl) newUrl.hidden = context.kind === 'notFound' || context.kind === 'serverError';
    this.undoIslands = hydrate ? hydrate(main) : () => undefined;
    this.renders++;
  }

  private afterRender(page: LoadedPage, mode: 'push' | 'pop'): void {
    const main = document.getElementById('main')!;
    // Emoji decorate a heading; "Navigated to 💰 Betting Strategies" would be read out as "money bag".
    const heading = plainName(main.querySelector('h1')?.textContent ?? '');
    // A new page starts from its <main>; back or forward returns to the link the reader left by.
    if (mode === 'push' || !refocusFollowed()) main.focus({ preventScroll: true });
    this.notices.announce(format(this.options.data.nav.announce, { title: announcedName(heading, document.title) }));
    this.options.onRendered?.(main);
    // The files the page was read from: for a missing page the 404 page's, not the address that answered 404.
    if (navigator.serviceWorker?.controller) rememberPage(page.files);
  }
}

/** What the browser would have done without the router. */
export function fullLoad(url: URL): void {
  location.assign(url.href);
}
