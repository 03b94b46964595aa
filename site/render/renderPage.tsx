/**
 * PageSpec → the HTML of the page's <main> and its head tags. The header,
 * footer and "new url" block are the same on every page: rendered once per
 * build by renderShell() and reused.
 */
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Footer } from '../components/Footer.tsx';
import { SiteProvider, type SiteContextValue } from '../components/SiteContext.tsx';
import { SponsoredLinks, SponsoredNewUrl } from '../components/Sponsored.tsx';
import { Header } from '../islands/Header.tsx';
import type { HeaderProps } from '../islands/types.ts';
import { ArticlePage } from '../pages/ArticlePage.tsx';
import { AuthorPage, AuthorsPage } from '../pages/AuthorPages.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { ListingPage } from '../pages/ListingPage.tsx';
import { InfoPage, NotFoundPage, ServerErrorPage, SitemapPage } from '../pages/SimplePages.tsx';
import { SearchPage } from '../pages/SearchPage.tsx';
import type { PageSpec } from '../pages/types.ts';
import { readArticleBody } from '../content/articleBody.ts';

function pageElement(spec: PageSpec): ReactElement {
  switch (spec.kind) {
    case 'home':
      return <HomePage {...spec.props} />;
    case 'category':
    case 'subcategory':
      return <ListingPage {...spec.props} />;
    case 'article':
      return <ArticlePage {...spec.props} body={readArticleBody(spec.props.source)} />;
    case 'authors':
      return <AuthorsPage {...spec.props} />;
    case 'author':
      return <AuthorPage {...spec.props} />;
    case 'info':
      return <InfoPage {...spec.props} />;
    case 'sitemap':
      return <SitemapPage {...spec.props} />;
    case 'search':
      return <SearchPage {...spec.props} />;
    case 'notFound':
      return <NotFoundPage />;
    case 'serverError':
      return <ServerErrorPage />;
  }
}

/** The inner HTML of <main>: the page, then its sponsored links. */
export function renderMain(spec: PageSpec, site: SiteContextValue): string {
  return renderToString(
    <SiteProvider value={site}>
      {pageElement(spec)}
      <SponsoredLinks heading={spec.sponsored.heading} links={spec.sponsored.links} style={site.settings.sponsored.style} />
    </SiteProvider>,
  );
}

export interface Shell {
  header: string;
  newUrl: string;
  footer: string;
}

export function renderShell(site: SiteContextValue, header: HeaderProps, newUrlHtml: string, year: number): Shell {
  return {
    header: renderToString(<Header {...header} />),
    newUrl: renderToString(
      <SiteProvider value={site}>
        <SponsoredNewUrl html={newUrlHtml} />
      </SiteProvider>,
    ),
    footer: renderToString(
      <SiteProvider value={site}>
        <Footer year={year} />
      </SiteProvider>,
    ),
  };
}
