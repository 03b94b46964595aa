/**
 * The contract between the search box (in the main bundle, server-rendered)
 * and the search chunk (site/client/search/, loaded on first use).
 */
import type { ComponentType } from 'react';
import type { HeaderStrings, MenuCategory } from '../types.ts';

export interface SearchHit {
  title: string;
  slug: string;
  /** Index of the category in the menu, and of the subcategory among its children. */
  category: number;
  subcategory: number;
}

export interface SearchResultPage {
  hits: SearchHit[];
  more: boolean;
  next(): Promise<SearchResultPage>;
}

export interface SearchApi {
  search(query: string): Promise<SearchResultPage>;
}

export interface SearchResultsProps {
  id: string;
  query: string;
  hits: SearchHit[];
  more: boolean;
  loading: boolean;
  failed: boolean;
  menu: MenuCategory[];
  strings: HeaderStrings;
  onMore(): void;
  onEscape(): void;
  /** ArrowUp on the first result: focus back in the search box, the results still open (as a combobox's list). */
  onBack(): void;
}

/** What the search chunk exports. */
export interface SearchModule {
  createSearch(manifestUrl: string): SearchApi;
  SearchResults: ComponentType<SearchResultsProps>;
}

/** What the search page's browser code shows (site/client/search/SearchPageResults.tsx). */
export interface SearchPageStrings {
  /** "Results for “{query}”". */
  resultsFor: string;
  /** Shown when the address has no query. */
  prompt: string;
  submit: string;
}
