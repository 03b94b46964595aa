/**
 * The files a page is written to, from its path and kind alone: the route
 * check (outputs.ts) knows them before a page is made, the renderer writes
 * them, and an incremental build removes them when the page is gone.
 */
import { outputFileFor, pageDataPathFor } from '../model/urls.ts';
import { SPECIAL_FILES, type PageKind, type PageSpec } from '../pages/types.ts';
import { ERROR_PAGES } from '../../shared/errorPages.ts';

/** Its HTML and its page data, relative to the output folder. */
export function pageOutputPaths(page: Pick<PageSpec, 'kind' | 'path'>): [string, string] {
  return [SPECIAL_FILES[page.kind] ?? outputFileFor(page.path), pageDataPathFor(page.path).slice(1)];
}

/** The error pages' paths (routes.ts, errorRoute): the only pages whose file name is not made from their path. */
const SPECIAL_PATHS: Record<string, PageKind> = { [ERROR_PAGES.notFound.path]: 'notFound', [ERROR_PAGES.serverError.path]: 'serverError' };

/** A page's files from its path alone, as a build manifest records pages. */
export function pageOutputPathsOf(pagePath: string): [string, string] {
  return pageOutputPaths({ kind: SPECIAL_PATHS[pagePath] ?? 'home', path: pagePath });
}
