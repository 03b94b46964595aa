import type { ArticleSummary } from '../model/summaries.ts';
import { useSite } from './SiteContext.tsx';

interface ListingCountProps {
  /** The plural-aware message that counts the listing's articles. */
  countKey: string;
  total?: number;
  /** The page's articles, newest first. */
  articles: ArticleSummary[];
  page: number;
}

/**
 * Under a listing's heading: the article count on the front page; on an
 * archive page, its number and the dates it spans, which never change.
 */
export function ListingCount({ countKey, total, articles, page }: ListingCountProps) {
  const { t, formatDate } = useSite();
  if (page === 0) return total === undefined ? null : <p className="page-count">{t(countKey, { count: total })}</p>;
  const newest = articles[0];
  const oldest = articles[articles.length - 1];
  return (
    <p className="page-count">
      {t('pagination.page', { page })}
      {newest && oldest && (
        <>
          {' · '}
          {oldest.date === newest.date ? formatDate(newest.date) : t('pagination.range', { from: formatDate(oldest.date), to: formatDate(newest.date) })}
        </>
      )}
    </p>
  );
}
