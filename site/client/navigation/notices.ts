/**
 * What the visitor is told during navigation: the screen-reader
 * announcement "Navigated to {title}" in #announcer, and the slow-navigation
 * notice after 1000 ms.
 */
export const SLOW_NAVIGATION_MS = 1000;

/**
 * What "Navigated to …" names: the page's heading (its emoji taken out by the caller), or, on an archive page, the
 * title's part before the site's name. An archive page's heading is its listing's, and its title adds its number in
 * brackets ("Betting Strategies (Page 2) | Felt Magazine", site/routes/routes.ts): the reader hears "Betting Strategies
 * (Page 2)", not the front page's name. No heading: the whole title.
 */
export function announcedName(heading: string, title: string): string {
  if (!heading) return title;
  const site = title.lastIndexOf(' | ');
  const named = site > 0 ? title.slice(0, site) : title;
  return named !== heading && named.startsWith(heading) && named.endsWith(')') ? named : heading;
}

export class Notices {
  private slowElement?: HTMLElement;

  constructor(private readonly slowText: string) {}

  announce(text: string): void {
    const announcer = document.getElementById('announcer');
    if (!announcer) return;
    // Cleared first, so the same title twice is still read out.
    announcer.textContent = '';
    requestAnimationFrame(() => (announcer.textContent = text));
  }

  /** Starts the timer of the slow notice; the returned function ends it. */
  whileLoading(): () => void {
    const main = document.getElementById('main');
    main?.setAttribute('aria-busy', 'true');
    const timer = setTimeout(() => this.showSlow(true), SLOW_NAVIGATION_MS);
    return () => {
      clearTimeout(timer);
      main?.removeAttribute('aria-busy');
      this.showSlow(false);
    };
  }

  private showSlow(show: boolean): void {
    if (!show && !this.slowElement) return;
    if (!this.slowElement) {
      this.slowElement = document.createElement('div');
      this.slowElement.className = 'nav-slow';
      this.slowElement.setAttribute('role', 'status');
      this.slowElement.textContent = this.slowText;
      document.body.append(this.slowElement);
    }
    this.slowElement.hidden = !show;
  }
}
