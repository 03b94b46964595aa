/**
 * Stable ("fixed") pagination for listings, newest first.
 *
 * Archive pages are numbered from the oldest article: /page/1 always holds a
 * listing's first articles, and an archive page, once full, never changes. New
 * articles change the listing's front page and, now and then, the newest
 * archive page; with the usual newest-first numbering every page of the
 * listing would shift by one article instead, and the nightly rebuild would
 * rewrite them all. Links to an archive page keep pointing at the same
 * articles, which readers, caches and search engines all prefer.
 *
 * The front page shows the newest articles that fill no archive page of their
 * own: between one and two pages' worth, never fewer than `size` when the
 * listing has that many, so no page is a lonely leftover.
 */

export interface ListingPlan {
  /** Articles on the front page. */
  front: number;
  /** Archive pages, numbered 1 (oldest) to `archives` (newest). */
  archives: number;
}

export function planListing(total: number, size: number): ListingPlan {
  const archives = Math.max(0, Math.floor(total / size) - 1);
  return { front: total - archives * size, archives };
}

/** The front page's share of a newest-first list. */
export function frontItems<T>(newestFirst: readonly T[], size: number): T[] {
  return newestFirst.slice(...itemRange(newestFirst.length, size, 0));
}

/** Archive page `n` (1 = oldest) of a newest-first list, newest first. */
export function archiveItems<T>(newestFirst: readonly T[], size: number, n: number): T[] {
  return newestFirst.slice(...itemRange(newestFirst.length, size, n));
}

/** Where page `n` (0: the front page) of a newest-first list of `total` items starts and ends: [start, end). */
export function itemRange(total: number, size: number, n: number): [start: number, end: number] {
  if (n === 0) return [0, planListing(total, size).front];
  const end = total - (n - 1) * size;
  return [end - size, end];
}

/**
 * What a page's navigation needs to know, and no more, so that it stays the
 * same while the listing grows: the front page knows the newest archive page;
 * archive page n knows only whether pages n + 1 and n + 2 exist.
 */
export interface PageInfo {
  base: string;
  /** 0 on the front page; otherwise the archive page's number. */
  page: number;
  /** The newest archive page this page may link to (see `pageInfo`). */
  newest: number;
}

export function pageInfo(base: string, page: number, archives: number): PageInfo {
  return { base, page, newest: page === 0 ? archives : Math.min(archives, page + 2) };
}

/** An entry of the numbered navigation: 0 is the front page, 'gap' an ellipsis. */
export type NavEntry = number | 'gap';

/**
 * The numbered links, newest first: the front page, the neighbours of the
 * current page, and archive page 1, with gaps where pages are skipped.
 * Front page: Latest · 90 89 … 1. Archive page 40: Latest … 41 40 39 … 1.
 */
export function pageWindow({ page, newest }: PageInfo): NavEntry[] {
  const numbers = page === 0 ? [newest, newest - 1, 1] : [page + 1, page, page - 1, 1];
  const wanted = [...new Set(numbers.filter((n) => n >= 1 && n <= newest))].sort((a, b) => b - a);
  const out: NavEntry[] = [0];
  // An archive page whose `newest` lies beyond page + 1 has unnamed pages above it.
  let previous = page !== 0 && newest > page + 1 ? Infinity : newest + 1;
  for (const n of wanted) {
    if (previous - n > 1) out.push('gap');
    out.push(n);
    previous = n;
  }
  return out;
}

/** The page a reader reaches with "newer" (undefined on the front page) and "older". */
export function neighbours({ page, newest }: PageInfo): { newer?: number; older?: number } {
  if (page === 0) return { older: newest >= 1 ? newest : undefined };
  return { newer: newest > page ? page + 1 : 0, older: page > 1 ? page - 1 : undefined };
}
