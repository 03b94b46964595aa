/**
 * The results of the search page (/search?q=…): the same engine as the
 * header box, ranked best first in one list, each result labelled with its
 * category and subcategory and opening in the same tab (the reader came here
 * to choose). A short or missing query asks for one.
 */
import { useEffect, useState } from 'react';
import { isSearchable } from '../../islands/search/text.ts';
import type { SearchHit, SearchPageStrings, SearchResultPage } from '../../islands/search/types.ts';
import { format, type HeaderStrings, type MenuCategory } from '../../islands/types.ts';
import { EmptyTable } from './EmptyTable.tsx';
import { createSearch } from './index.ts';
import { Decorated } from '../../islands/Decorated.tsx';

export interface SearchPageResultsProps {
  query: string;
  manifestUrl: string;
  menu: MenuCategory[];
  strings: HeaderStrings;
  page: SearchPageStrings;
}

interface State {
  hits: SearchHit[];
  next?: SearchResultPage;
  loading: boolean;
  failed: boolean;
}

export function SearchPageResults({ query, manifestUrl, menu, strings, page }: SearchPageResultsProps) {
  const [state, setState] = useState<State>({ hits: [], loading: true, failed: false });
  const searchable = isSearchable(query);

  useEffect(() => {
    if (!searchable) return;
    let current = true;
    createSearch(manifestUrl)
      .search(query)
      .then(
        (first) => current && setState({ hits: first.hits, next: first, loading: false, failed: false }),
        (error: unknown) => {
          console.error(error);
          if (current) setState({ hits: [], loading: false, failed: true });
        },
      );
    return () => {
      current = false;
    };
  }, [manifestUrl, query, searchable]);

  if (!searchable) return <p className="search-page-status">{page.prompt}</p>;

  const more = () => {
    const last = state.next;
    if (!last?.more) return;
    setState((s) => ({ ...s, loading: true }));
    last.next().then(
      (next) => setState((s) => ({ hits: [...s.hits, ...next.hits], next, loading: false, failed: false })),
      () => setState((s) => ({ ...s, loading: false, failed: true })),
    );
  };
  const count = state.hits.length;
  const status = state.failed
    ? strings.searchError
    : state.loading && count === 0
      ? strings.searchLoading
      : count === 1 && !state.next?.more
        ? strings.searchResultsOne
        : format(strings.searchResults, { count: state.next?.more ? `${count}+` : count });
  return (
    <>
      <h2 className="search-page-for">{format(page.resultsFor, { query: query.trim() })}</h2>
      <p className="search-page-status" role="status">
        {status}
      </p>
      {!state.loading && !state.failed && count === 0 && (
        <div className="search-empty">
          <EmptyTable label={strings.searchEmptyAlt} />
          <p>{format(strings.searchEmpty, { query: query.trim() })}</p>
        </div>
      )}
      {count > 0 && (
        <ol className="search-page-list">
          {state.hits.map((hit) => {
            const category = menu[hit.category];
            const subcategory = category?.children[hit.subcategory];
            return (
              <li key={hit.slug} className="search-page-hit">
                <a className="search-page-title" href={`/articles/${hit.slug}`}>
                  {hit.title}
                </a>
                {category && (
                  <span className="search-page-where">
                    <Decorated text={[category.title, subcategory?.title].filter(Boolean).join(' › ')} />
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {state.next?.more && (
        <button type="button" className="search-more" onClick={more} disabled={state.loading}>
          {strings.searchMore}
        </button>
      )}
    </>
  );
}
