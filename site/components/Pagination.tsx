import { neighbours, pageWindow, type PageInfo } from '../model/pagination.ts';
import { urls } from '../model/urls.ts';
import { useSite } from './SiteContext.tsx';

/**
 * Newer / older and numbered links of a listing (see model/pagination.ts):
 * the front page holds the latest articles, archive pages count up from the oldest.
 */
export function Pagination(info: PageInfo) {
  const { t } = useSite();
  if (info.newest < 1) return null;
  const { newer, older } = neighbours(info);
  const label = (n: number) => (n === 0 ? t('pagination.latest') : String(n));
  const name = (n: number) => (n === 0 ? t('pagination.latestLabel') : t('pagination.page', { page: n }));
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {newer !== undefined && (
        <a rel="prev" href={urls.page(info.base, newer)}>
          ← {t('pagination.newer')}
        </a>
      )}
      <ol>
        {pageWindow(info).map((n, i) =>
          n === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === info.page ? (
                <span aria-current="page" aria-label={name(n)}>
                  {label(n)}
                </span>
              ) : (
                <a href={urls.page(info.base, n)} aria-label={name(n)}>
                  {label(n)}
                </a>
              )}
            </li>
          ),
        )}
      </ol>
      {older !== undefined && (
        <a rel="next" href={urls.page(info.base, older)}>
          {t('pagination.older')} →
        </a>
      )}
    </nav>
  );
}
