import { ArticleGrid } from '../components/ArticleCard.tsx';
import { Breadcrumbs } from '../components/Breadcrumbs.tsx';
import { ListingCount } from '../components/ListingCount.tsx';
import { Pagination } from '../components/Pagination.tsx';
import { useSite } from '../components/SiteContext.tsx';
import type { AuthorProps, AuthorsProps } from './types.ts';

export function AuthorsPage({ authors }: AuthorsProps) {
  const { t } = useSite();
  return (
    <>
      <Breadcrumbs
        trail={[
          { name: t('breadcrumbs.home'), href: '/' },
          { name: t('authors.heading'), href: '/authors' },
        ]}
      />
      <header className="page-header">
        <h1>{t('authors.heading')}</h1>
      </header>
      <ul className="author-list">
        {authors.map((author) => (
          <li key={author.href} className="author-item">
            <span className="avatar" aria-hidden="true">
              {initials(author.name)}
            </span>
            <div className="author-text">
              <h2 className="author-name">
                <a href={author.href}>{author.name}</a>
              </h2>
              <p className="author-bio">{author.description}</p>
              <p className="author-count">{t('authors.articles', { count: author.count ?? 0 })}</p>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

export function AuthorPage({ name, bio, trail, articles, pagination, total }: AuthorProps) {
  const { t } = useSite();
  return (
    <>
      <Breadcrumbs trail={trail} />
      <header className="page-header author-header">
        <span className="avatar avatar-large" aria-hidden="true">
          {initials(name)}
        </span>
        <div>
          <h1>{name}</h1>
          <p className="page-description">{bio}</p>
          <ListingCount countKey="authors.articles" total={total} articles={articles} page={pagination.page} />
        </div>
      </header>
      <h2 className="section-heading">{t('author.articles', { author: name })}</h2>
      {articles.length ? <ArticleGrid articles={articles} firstCover="eager" /> : <p className="empty">{t('category.empty')}</p>}
      <Pagination {...pagination} />
    </>
  );
}

function initials(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}
