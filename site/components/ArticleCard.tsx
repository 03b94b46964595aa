/** An article in a listing: title, description, category, author, date, reading time. */
import type { ArticleSummary } from '../model/summaries.ts';
import { urls } from '../model/urls.ts';
import { useSite } from './SiteContext.tsx';
import { CoverImage, type CoverLoading } from './CoverImage.tsx';
import { Decorated } from '../islands/Decorated.tsx';

/** How wide a card's cover is shown, per card size (the grids of main.css), for the browser to pick a width. */
const COVER_SIZES = {
  lead: '(min-width: 1184px) 41rem, (min-width: 577px) 58vw, calc(100vw - 2rem)',
  normal: '(min-width: 1184px) 23rem, (min-width: 960px) 31vw, (min-width: 577px) 47vw, calc(100vw - 2rem)',
  compact: '7rem',
};

export function ArticleCard({
  article,
  headingLevel = 3,
  size = 'normal',
  dated = 'published',
  cover = 'lazy',
}: {
  article: ArticleSummary;
  headingLevel?: 2 | 3;
  size?: 'lead' | 'normal' | 'compact';
  /** Which date the card shows: a list of updated articles shows when each was updated. */
  dated?: 'published' | 'updated';
  /** Lazy below the fold; the first card a page shows loads at once. */
  cover?: CoverLoading;
}) {
  const { t, formatDate, contentLang } = useSite();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={`card card-${size}`}>
      <CoverImage className="card-cover" slug={article.slug} svg={article.cover} sizes={COVER_SIZES[size]} loading={cover} />
      {article.category && (
        <a className="card-kicker" href={article.category.href}>
          <Decorated text={article.category.title} />
        </a>
      )}
      {article.draft && <DraftBadge draft={article.draft} />}
      <Heading className="card-title" lang={contentLang}>
        <a href={urls.article(article.slug)}>{article.title}</a>
      </Heading>
      {size !== 'compact' && (
        <p className="card-description" lang={contentLang}>
          {article.description}
        </p>
      )}
      <p className="card-meta">
        <a href={urls.author(article.authorSlug)}>{article.author}</a>
        <span aria-hidden="true"> · </span>
        {dated === 'updated' && article.updated ? (
          <span>
            {t('article.updated')} <time dateTime={article.updated}>{formatDate(article.updated)}</time>
          </span>
        ) : (
          <time dateTime={article.date}>{formatDate(article.date)}</time>
        )}
        <span aria-hidden="true"> · </span>
        <span>{t('article.readingTime', { minutes: article.minutes })}</span>
      </p>
    </article>
  );
}

export function ArticleGrid({
  articles,
  headingLevel = 3,
  firstCover = 'lazy',
}: {
  articles: ArticleSummary[];
  headingLevel?: 2 | 3;
  firstCover?: CoverLoading;
}) {
  return (
    <div className="card-grid">
      {articles.map((article, i) => (
        <ArticleCard key={article.slug} article={article} headingLevel={headingLevel} cover={i === 0 ? firstCover : 'lazy'} />
      ))}
    </div>
  );
}

/** `felt preview`'s mark on an article publishing would add or change (the sponsored tag's look: no new style for production). */
export function DraftBadge({ draft }: { draft: 'new' | 'changed' }) {
  const { t } = useSite();
  return (
    <span className="sponsored-tag draft-badge" data-draft={draft}>
      {t(`preview.${draft}`)}
    </span>
  );
}
