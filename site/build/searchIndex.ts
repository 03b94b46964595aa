/**
 * The search index, written next to the pages. Placeholder shape until the
 * search island lands (issue #3): a manifest and the titles.
 */
import type { SiteModel } from '../model/siteModel.ts';

export const SEARCH_MANIFEST = 'search/manifest.json';

export interface OutputFile {
  path: string;
  content: string;
}

export function buildSearchIndex(model: SiteModel): OutputFile[] {
  return [{ path: SEARCH_MANIFEST, content: JSON.stringify({ version: 1, articles: model.articles.length }) }];
}
