/**
 * Islands wait for the reader. Until the first interaction (a pointer down or
 * over the page, a key, a focus, a touch) the page is plain HTML with the
 * router's links: no React, no hydration, nothing on the main thread while it
 * loads (Lighthouse's Total Blocking Time; a phone's first seconds). The
 * first interaction loads the islands' chunk, which the browser has
 * prefetched once the page finished loading.
 */

const WAKE_EVENTS = ['pointerdown', 'pointerover', 'keydown', 'focusin', 'touchstart'] as const;

/** Resolves on the first interaction with the page. */
export function firstInteraction(): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      for (const type of WAKE_EVENTS) removeEventListener(type, wake, true);
      resolve();
    };
    for (const type of WAKE_EVENTS) addEventListener(type, wake, { capture: true, passive: true });
  });
}

/**
 * Holds clicks on the islands' buttons while they hydrate, and clicks the
 * last one again once they have: a tap on the menu button that arrives
 * before React opens the menu. Links are left alone; the router and the
 * browser handle them without React.
 */
export function holdClicks(islands: () => Element[]): () => void {
  let held: { button: HTMLElement; detail: number } | undefined;
  const hold = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.('button, summary, [role="button"]');
    if (!(button instanceof HTMLElement) || !islands().some((island) => island.contains(button))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    // detail 0 is a click made with Enter or Space; the menu opens on its first link for those.
    held = { button, detail: event.detail };
  };
  addEventListener('click', hold, true);
  return () => {
    removeEventListener('click', hold, true);
    held?.button.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: held.detail, view: window }));
  };
}

/** After the page has loaded and the browser is idle, fetches the islands' code into the cache, without running it. */
export function prefetchWhenIdle(urls: string[]): void {
  if (urls.length === 0) return;
  const prefetch = () => {
    for (const href of urls) {
      const link = document.createElement('link');
      link.rel = 'prefetch';
      link.href = href;
      link.as = 'script';
      document.head.append(link);
    }
  };
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(prefetch, { timeout: 3000 }) : setTimeout(prefetch, 1000));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}
