import { ArticleGrid } from '../components/ArticleCard.tsx';
import { Breadcrumbs } from '../components/Breadcrumbs.tsx';
import { Pagination } from '../components/Pagination.tsx';
import { ListingCount } from '../components/ListingCount.tsx';
import { TopicCount } from '../components/TopicCount.tsx';
import { useSite } from '../components/SiteContext.tsx';
import type { ListingProps } from './types.ts';
import { Decorated } from '../islands/Decorated.tsx';

/** A category or subcategory page: its topics, then its articles, newest first, paginated. */
export function ListingPage({ heading, description, trail, topics, articles, pagination, total }: ListingProps) {
  const { t } = useSite();
  return (
    <>
      <Breadcrumbs trail={trail} />
      <header className="page-header">
        <h1>
          <Decorated text={heading} />
        </h1>
        {description && (
          <p className="page-description">
            <Decorated text={description} />
          </p>
        )}
        <ListingCount countKey="category.count" total={total} articles={articles} page={pagination.page} />
      </header>
      {topics.length > 0 && (
        <nav className="topics" aria-labelledby="topics-heading">
          <h2 id="topics-heading" className="visually-hidden">
            {t('category.subcategories')}
          </h2>
          <ul>
            {topics.map((topic) => (
              <li key={topic.href}>
                <a href={topic.href}>
                  <Decorated text={topic.title} />
                  {topic.count !== undefined && (
                    <>
                      {' '}
                      <TopicCount count={topic.count} />
                    </>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {articles.length ? <ArticleGrid articles={articles} headingLevel={2} firstCover="eager" /> : <p className="empty">{t('category.empty')}</p>}
      <Pagination {...pagination} />
    </>
  );
}
