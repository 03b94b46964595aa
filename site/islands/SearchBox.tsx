/**
 * The header search box (SPEC section 2). The input is server-rendered and
 * works as a plain field; the search chunk (engine, index reader, results
 * list) is loaded the first time the box is focused or typed in. Results
 * appear from three characters; the typed text stays when one is chosen.
 * Enter opens the results page, /search?q=… (a plain form: it works before
 * hydration and without JavaScript).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchApi, SearchHit, SearchModule, SearchResultPage } from './search/types.ts';
import { isSearchable } from './search/text.ts';
import type { HeaderStrings, MenuCategory } from './types.ts';

const DEBOUNCE_MS = 120;

interface Results {
  query: string;
  hits: SearchHit[];
  page?: SearchResultPage;
  loading: boolean;
  failed: boolean;
}

interface Loaded {
  module: SearchModule;
  api: SearchApi;
}

export interface SearchBoxProps {
  strings: HeaderStrings;
  searchIndex: string;
  menu: MenuCategory[];
  loadSearch?: () => Promise<SearchModule>;
}

export function SearchBox({ strings, searchIndex, menu, loadSearch }: SearchBoxProps) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [results, setResults] = useState<Results>({ query: '', hits: [], loading: false, failed: false });
  const loading = useRef<Promise<void> | null>(null);
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const resultsId = useId();

  const ensureLoaded = () => {
    if (loading.current || !loadSearch) return;
    loading.current = loadSearch().then(
      (module) => setLoaded({ module, api: module.createSearch(searchIndex) }),
      (error: unknown) => {
        console.error(error);
        loading.current = null;
        setResults((r) => ({ ...r, loading: false, failed: true }));
      },
    );
  };

  // Islands hydrate on the first interaction, which may have been focusing or typing into the
  // plain field: the search code loads as onFocus would have, and what was typed is the query.
  useEffect(() => {
    const input = inputRef.current;
    if (!input || (document.activeElement !== input && input.value === '')) return;
    ensureLoaded();
    if (input.value !== '') {
      setQuery(input.value);
      setOpen(true);
    }
    // Once, after hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!loaded || !isSearchable(query)) return;
    let current = true;
    setResults((r) => ({ ...r, loading: true, failed: false }));
    const timer = setTimeout(() => {
      loaded.api.search(query).then(
        (page) => current && setResults({ query, hits: page.hits, page, loading: false, failed: false }),
        (error: unknown) => {
          console.error(error);
          if (current) setResults({ query, hits: [], loading: false, failed: true });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [loaded, query]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const more = () => {
    const page = results.page;
    if (!page?.more) return;
    setResults((r) => ({ ...r, loading: true }));
    page.next().then(
      (next) => setResults((r) => (r.page === page ? { ...r, hits: [...r.hits, ...next.hits], page: next, loading: false } : r)),
      () => setResults((r) => ({ ...r, loading: false, failed: true })),
    );
  };

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'ArrowDown' && open) {
      const first = rootRef.current?.querySelector<HTMLAnchorElement>('.search-results a');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'ArrowDown' && isSearchable(query)) {
      // Closed with Escape: ArrowDown shows the results again, as a combobox opens its list.
      event.preventDefault();
      setOpen(true);
    }
  };

  const searchable = isSearchable(query);
  const showResults = open && searchable && loaded !== null;
  const Results = loaded?.module.SearchResults;
  return (
    // Enter goes to the results page (issue 18), also before hydration and without JavaScript;
    // a query too short to search stays here, with the hint.
    <form
      className="search"
      role="search"
      ref={rootRef}
      action="/search"
      method="get"
      onSubmit={(event) => !isSearchable(query) && event.preventDefault()}
      onBlur={(event) => {
        // Tab or Shift+Tab out of the box and its results: they close, or they would cover what has focus now.
        // Focus going nowhere (a result opened in a new tab, the window left, a result list redrawn) keeps them.
        const next = event.relatedTarget as Node | null;
        if (next && !event.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <label className="visually-hidden" htmlFor={inputId}>
        {strings.searchLabel}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        name="q"
        className="search-input"
        type="search"
        placeholder={strings.searchPlaceholder}
        autoComplete="off"
        spellCheck={false}
        aria-controls={showResults ? resultsId : undefined}
        value={query}
        onFocus={() => {
          ensureLoaded();
          setOpen(true);
        }}
        onChange={(event) => {
          ensureLoaded();
          setQuery(event.target.value);
          setOpen(true);
        }}
        onKeyDown={onInputKey}
      />
      {open && query.trim().length > 0 && !searchable && (
        <p className="search-hint" role="status">
          {strings.searchHint}
        </p>
      )}
      {showResults && Results && (
        <Results
          id={resultsId}
          query={query}
          hits={results.query === query || results.loading ? results.hits : []}
          more={results.page?.more ?? false}
          loading={results.loading || results.query !== query}
          failed={results.failed}
          menu={menu}
          strings={strings}
          onMore={more}
          onEscape={() => {
            // Focus first: the input's focus handler opens the list, the close must come after.
            inputRef.current?.focus();
            setOpen(false);
          }}
          onBack={() => inputRef.current?.focus()}
        />
      )}
      {open && searchable && results.failed && !loaded && (
        <p className="search-hint" role="status">
          {strings.searchError}
        </p>
      )}
    </form>
  );
}
