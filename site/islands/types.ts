/**
 * Props of the interactive islands. They are plain JSON: the server renders
 * the islands with them, and the browser hydrates with the same values read
 * from /page-data/sq/d/{hash}.json, so both renders match.
 */
import type { SearchModule } from './search/types.ts';

export interface MenuLink {
  title: string;
  href: string;
}

export interface MenuCategory extends MenuLink {
  key: string;
  children: MenuLink[];
}

export interface HeaderStrings {
  home: string;
  menuCategories: string;
  menuOpen: string;
  menuClose: string;
  menuMore: string;
  menuMoreIn: string;
  menuLabel: string;
  searchPlaceholder: string;
  searchLabel: string;
  searchHint: string;
  searchEmpty: string;
  searchEmptyAlt: string;
  searchResults: string;
  /** The status for exactly one result, count filled in. */
  searchResultsOne: string;
  searchLoading: string;
  searchOpensInNewTab: string;
  searchError: string;
  searchMore: string;
}

export interface HeaderProps {
  title: string;
  logo: string;
  menu: MenuCategory[];
  strings: HeaderStrings;
  /** Where the search index lives (its manifest); loaded on first use. */
  searchIndex: string;
}

/** What only the browser gives the header: functions, never rendered on the server. */
export interface HeaderRuntime {
  /** Loads the search chunk (site/client/search/) on first use of the box. */
  loadSearch?: () => Promise<SearchModule>;
}

/** The shared data of every page, emitted once as a static query file. */
export interface StaticQueryData {
  header: HeaderProps;
  copy: { copied: string; copyLink: string; prompt: string };
  nav: { announce: string; slow: string; offline: string };
}

/** Fills {name} placeholders in a UI string (the browser-side twin of t()). */
export function format(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
