import { urls } from '../model/urls.ts';
import { useSite } from './SiteContext.tsx';

export interface PageInfo {
  base: string;
  page: number;
  pages: number;
}

/** Previous / next and numbered links of a paginated listing. */
export function Pagination({ base, page, pages }: PageInfo) {
  const { t } = useSite();
  if (pages <= 1) return null;
  const numbers = pageWindow(page, pages);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {page > 1 && <a rel="prev" href={urls.page(base, page - 1)}>← {t('pagination.previous')}</a>}
      <ol>
        {numbers.map((n, i) =>
          n === 0 ? (
            <li key={`gap-${i}`} aria-hidden="true">…</li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" aria-label={t('pagination.page', { page: n })}>{n}</span>
              ) : (
                <a href={urls.page(base, n)} aria-label={t('pagination.page', { page: n })}>{n}</a>
              )}
            </li>
          ),
        )}
      </ol>
      {page < pages && <a rel="next" href={urls.page(base, page + 1)}>{t('pagination.next')} →</a>}
    </nav>
  );
}

/** Page numbers around the current one, with 0 for a gap: 1 … 4 5 6 … 20. */
export function pageWindow(page: number, pages: number): number[] {
  const wanted = new Set([1, pages, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: number[] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && n - last > 1) out.push(0);
    out.push(n);
  }
  return out;
}
