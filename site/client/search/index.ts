/**
 * The search chunk, loaded the first time the search box is used: the
 * index reader and the result list.
 */
import type { SearchApi, SearchModule } from '../../islands/search/types.ts';
import { MissingIndexFile, SearchEngine } from './engine.ts';
import { SearchResults } from './SearchResults.tsx';

async function fetchJson(url: string, reload: boolean): Promise<unknown> {
  const response = await fetch(url, { cache: reload ? 'reload' : 'default', credentials: 'same-origin' });
  if (response.status === 404) throw new MissingIndexFile(url);
  if (!response.ok) throw new Error(`search index file ${url} answered ${response.status}`);
  return response.json();
}

export function createSearch(manifestUrl: string): SearchApi {
  return new SearchEngine(manifestUrl, fetchJson);
}

export { SearchResults };

// Checked here: the chunk's exports are what the search box expects.
export const searchModule: SearchModule = { createSearch, SearchResults };
