import { Prose } from '../components/Prose.tsx';
import { Breadcrumbs } from '../components/Breadcrumbs.tsx';
import { useSite } from '../components/SiteContext.tsx';
import { TopicCount } from '../components/TopicCount.tsx';
import { renderMarkdown } from '../render/markdown.ts';
import type { InfoProps, SitemapProps } from './types.ts';
import { Decorated } from '../islands/Decorated.tsx';

export function InfoPage({ title, body, trail }: InfoProps) {
  return (
    <>
      <Breadcrumbs trail={trail} />
      <article className="info-page">
        <h1>{title}</h1>
        <Prose className="prose" html={renderMarkdown(body).html} />
      </article>
    </>
  );
}

export function SitemapPage({ sections, info, recent }: SitemapProps) {
  const { t } = useSite();
  return (
    <>
      <Breadcrumbs
        trail={[
          { name: t('breadcrumbs.home'), href: '/' },
          { name: t('sitemap.heading'), href: '/sitemap' },
        ]}
      />
      <h1>{t('sitemap.heading')}</h1>
      <div className="sitemap-grid">
        {sections.map((section) => (
          <section key={section.href} aria-labelledby={`sm-${section.href.slice(1)}`}>
            <h2 id={`sm-${section.href.slice(1)}`} className="sitemap-heading">
              <a href={section.href}>
                <Decorated text={section.title} />
              </a>
            </h2>
            <ul>
              {section.children.map((child) => (
                <li key={child.href}>
                  <a href={child.href}>
                    <Decorated text={child.title} />
                  </a>{' '}
                  <TopicCount count={child.count} />
                </li>
              ))}
            </ul>
          </section>
        ))}
        <section aria-labelledby="sm-info">
          <h2 id="sm-info" className="sitemap-heading">
            {t('sitemap.info')}
          </h2>
          <ul>
            {info.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.title}</a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {recent.length > 0 && (
        <section aria-labelledby="sm-recent">
          <h2 id="sm-recent" className="sitemap-heading">
            {t('sitemap.recent')}
          </h2>
          <ul className="sitemap-articles">
            {recent.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.title}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** The 404 and 500 pages: the same layout, their own strings. */
function ErrorPage({ code, strings }: { code: number; strings: 'notFound' | 'serverError' }) {
  const { t } = useSite();
  return (
    <div className="error-page">
      <p className="error-code" aria-hidden="true">
        {code}
      </p>
      <h1>{t(`${strings}.heading`)}</h1>
      <p>{t(`${strings}.body`)}</p>
      <p className="error-actions">
        {strings === 'serverError' && (
          // An empty href is the page itself: a full load asks the server again, which is what "try again" means.
          <a className="button" href="" data-full-load="">
            {t('serverError.retry')}
          </a>
        )}
        <a className={strings === 'serverError' ? 'button button-quiet' : 'button'} href="/">
          {t('notFound.home')}
        </a>
      </p>
    </div>
  );
}

export function NotFoundPage() {
  return <ErrorPage code={404} strings="notFound" />;
}

export function ServerErrorPage() {
  return <ErrorPage code={500} strings="serverError" />;
}
