/**
 * The search page's component chunk: reads ?q= and renders its results in
 * place of the server's no-JavaScript message. Unlike other islands it runs
 * as soon as the page starts (main.tsx): the results are the page.
 */
import { createRoot } from 'react-dom/client';
import type { SearchPageStrings } from '../../islands/search/types.ts';
import type { StaticQueryData } from '../../islands/types.ts';
import { SearchPageResults } from '../search/SearchPageResults.tsx';

export function hydrate(root: ParentNode, data: StaticQueryData): () => void {
  const island = root.querySelector<HTMLElement>('[data-island="search-page"]');
  const results = island?.querySelector<HTMLElement>('.search-page-results');
  if (!island || !results) return () => undefined;
  const page = JSON.parse(island.dataset.strings ?? '{}') as SearchPageStrings;
  const query = new URLSearchParams(location.search).get('q') ?? '';
  const input = island.querySelector<HTMLInputElement>('input[name="q"]');
  if (input && input.value === '') input.value = query;
  const reactRoot = createRoot(results);
  reactRoot.render(<SearchPageResults query={query} manifestUrl={data.header.searchIndex} menu={data.header.menu} strings={data.header.strings} page={page} />);
  return () => reactRoot.unmount();
}
