import { Prose } from '../components/Prose.tsx';
import { ArticleGrid, DraftBadge } from '../components/ArticleCard.tsx';
import { Breadcrumbs } from '../components/Breadcrumbs.tsx';
import { useSite } from '../components/SiteContext.tsx';
import { CopyLink } from '../islands/CopyLink.tsx';
import { CoverImage } from '../components/CoverImage.tsx';
import { readingMinutes, renderMarkdown, type TocEntry } from '../render/markdown.ts';
import { urls } from '../model/urls.ts';
import type { ArticleProps } from './types.ts';

export function ArticlePage(props: ArticleProps & { body: string }) {
  const { t, formatDate, contentLang } = useSite();
  const body = renderMarkdown(props.body);
  return (
    <article className="article">
      <Breadcrumbs trail={props.trail} />
      <header className="article-header">
        {props.draft && (
          <p>
            <DraftBadge draft={props.draft} />
          </p>
        )}
        <h1 className="article-title" lang={contentLang}>
          {props.title}
        </h1>
        <p className="article-standfirst" lang={contentLang}>
          {props.description}
        </p>
        <p className="article-meta">
          {t('article.by')}{' '}
          <a rel="author" href={urls.author(props.author.slug)}>
            {props.author.name}
          </a>
          <span aria-hidden="true"> · </span>
          {t('article.published')} <time dateTime={props.date}>{formatDate(props.date)}</time>
          {props.updated && props.updated !== props.date && (
            <>
              <span aria-hidden="true"> · </span>
              {t('article.updated')} <time dateTime={props.updated}>{formatDate(props.updated)}</time>
            </>
          )}
          <span aria-hidden="true"> · </span>
          {t('article.readingTime', { minutes: readingMinutes(props.words) })}
        </p>
        <div data-island="copy-link" data-url={props.pageUrl}>
          <CopyLink url={props.pageUrl} label={t('article.copyLink')} copied={t('article.copied')} prompt={t('article.copyPrompt')} />
        </div>
        <CoverImage
          className="article-cover"
          slug={props.slug}
          svg={props.cover}
          sizes="(min-width: 768px) 46rem, calc(100vw - 2rem)"
          alt={props.coverAlt}
          loading="high"
        />
      </header>
      <div className="article-layout">
        {body.toc.length > 1 && (
          <nav className="toc" aria-labelledby="toc-heading">
            <h2 id="toc-heading" className="toc-heading">
              {t('article.toc')}
            </h2>
            <ol>
              {nestToc(body.toc).map((entry) => (
                <li key={entry.id}>
                  <a href={`#${entry.id}`}>{entry.text}</a>
                  {entry.children.length > 0 && (
                    <ol>
                      {entry.children.map((child) => (
                        <li key={child.id}>
                          <a href={`#${child.id}`}>{child.text}</a>
                        </li>
                      ))}
                    </ol>
                  )}
                </li>
              ))}
            </ol>
          </nav>
        )}
        <Prose className="article-body prose" html={body.html} lang={contentLang} />
      </div>
      {props.tags.length > 0 && (
        <section className="tags" aria-labelledby="tags-heading">
          <h2 id="tags-heading" className="tags-heading">
            {t('article.tags')}
          </h2>
          <ul>
            {props.tags.map((tag) => (
              <li key={tag}>{tag}</li>
            ))}
          </ul>
        </section>
      )}
      {props.translations.length > 0 && (
        <p className="translations">
          {t('article.translations')}:{' '}
          {props.translations.map((tr, i) => (
            <span key={tr.locale}>
              {i > 0 && ', '}
              <a href={tr.href} hrefLang={tr.locale.replace('_', '-')} lang={tr.locale.replace('_', '-')}>
                {tr.label}
              </a>
            </span>
          ))}
        </p>
      )}
      <section className="author-box" aria-labelledby="author-box-heading">
        <h2 id="author-box-heading" className="author-box-heading">
          {t('article.aboutAuthor')}
        </h2>
        <p className="author-box-name">
          <a href={urls.author(props.author.slug)}>{props.author.name}</a>
        </p>
        <p>{props.author.bio}</p>
      </section>
      {props.related.length > 0 && (
        <section className="related" aria-labelledby="related-heading">
          <h2 id="related-heading" className="section-heading">
            {t('article.related')}
          </h2>
          <ArticleGrid articles={props.related} />
        </section>
      )}
    </article>
  );
}

/** h3 entries nest under the h2 before them; an h3 before any h2 stands alone. */
function nestToc(toc: TocEntry[]): (TocEntry & { children: TocEntry[] })[] {
  const out: (TocEntry & { children: TocEntry[] })[] = [];
  for (const entry of toc) {
    const parent = out[out.length - 1];
    if (entry.level === 3 && parent) parent.children.push(entry);
    else out.push({ ...entry, children: [] });
  }
  return out;
}
