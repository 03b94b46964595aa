/**
 * Back to the link followed: a browser that goes back to a page it kept puts
 * keyboard focus on the link the reader left it by, so Tab goes on from
 * there. The router renders that page again from its data, so it remembers
 * the link in the history entry it leaves (its href, and which of the links
 * with that href it was) and focuses it again on back or forward.
 */
export interface FollowedLink {
  href: string;
  index: number;
}

/** Which link an element is or lies in, as the page on screen numbers them. */
export function followedLink(target: EventTarget | null): FollowedLink | undefined {
  const anchor = target instanceof Element ? target.closest('a[href]') : null;
  if (!anchor) return undefined;
  const href = anchor.getAttribute('href')!;
  return { href, index: sameHref(href).indexOf(anchor) };
}

/** Stores the link in the history entry on screen, before the next page gets an entry of its own. */
export function rememberFollowed(link: FollowedLink | undefined): void {
  const state = (history.state ?? {}) as Record<string, unknown>;
  history.replaceState({ ...state, followed: link }, '');
}

/** Focuses the link the reader left this history entry by, if the page still shows it; false otherwise. */
export function refocusFollowed(): boolean {
  const link = (history.state as { followed?: FollowedLink } | null)?.followed;
  if (!link) return false;
  const anchor = sameHref(link.href)[link.index];
  if (!(anchor instanceof HTMLElement)) return false;
  anchor.focus({ preventScroll: true });
  return document.activeElement === anchor;
}

function sameHref(href: string): Element[] {
  return [...document.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href') === href);
}
