/**
 * The search results page at /search?q=… (issue 18). One static page for
 * every query: the server renders the heading, a search form and, for a
 * reader without JavaScript, a message and a link to the sitemap; the
 * browser (site/client/pages/search.tsx) reads q and shows the results.
 */
import type { SearchPageProps } from './types.ts';

export function SearchPage({ heading, noScript, sitemap, client }: SearchPageProps) {
  return (
    <div className="search-page" data-island="search-page" data-strings={JSON.stringify(client)}>
      <h1 className="search-page-heading">{heading}</h1>
      <form className="search-page-form" action="/search" method="get" role="search" aria-label={heading}>
        <input className="search-page-input" type="search" name="q" aria-label={heading} autoComplete="off" spellCheck={false} />
        <button type="submit" className="search-page-submit">
          {client.submit}
        </button>
      </form>
      <div className="search-page-results">
        <p className="search-page-noscript">
          {noScript} <a href={sitemap.href}>{sitemap.title}</a>
        </p>
      </div>
    </div>
  );
}
