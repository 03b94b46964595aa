/**
 * Scroll positions per history entry, as a browser keeps them: a new page
 * starts at the top (or at its #fragment), back and forward return to where
 * the visitor was. Positions live in sessionStorage, so they survive a full
 * load in between.
 */
const STORAGE_KEY = 'felt-scroll';

type Positions = Record<string, [number, number]>;

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

export class ScrollMemory {
  private key: string;
  private positions: Positions;
  private frame = 0;

  constructor() {
    history.scrollRestoration = 'manual';
    this.positions = read();
    const state = history.state as { key?: string } | null;
    this.key = state?.key ?? newKey();
    if (!state?.key) history.replaceState({ ...(state ?? {}), key: this.key }, '');
    addEventListener(
      'scroll',
      () => {
        cancelAnimationFrame(this.frame);
        this.frame = requestAnimationFrame(() => this.save());
      },
      { passive: true },
    );
    addEventListener('pagehide', () => this.persist());
    // A reload or a back/forward full load: return to the saved place.
    const saved = this.positions[this.key];
    const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (saved && entry && entry.type !== 'navigate') jump(saved);
  }

  save(): void {
    this.positions[this.key] = [scrollX, scrollY];
  }

  /** A new entry for a link followed. */
  push(url: string): void {
    this.save();
    this.persist();
    this.key = newKey();
    history.pushState({ key: this.key }, '', url);
  }

  /** The entry the browser moved to on back or forward. */
  popped(): void {
    const state = history.state as { key?: string } | null;
    this.key = state?.key ?? newKey();
  }

  /** After a link: the fragment's element or the top. After back or forward: the saved place. */
  apply(mode: 'push' | 'pop', hash: string): void {
    const saved = mode === 'pop' ? this.positions[this.key] : undefined;
    if (saved) return jump(saved);
    const target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView({ behavior: 'instant' });
    else jump([0, 0]);
  }

  private persist(): void {
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(this.positions));
    } catch {
      // Storage full or off: positions last for this page only.
    }
  }
}

/** At once, as a page load would, whatever the stylesheet's scroll-behavior says. */
function jump([left, top]: [number, number]): void {
  scrollTo({ left, top, behavior: 'instant' });
}

function read(): Positions {
  try {
    return (JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Positions) ?? {};
  } catch {
    return {};
  }
}
