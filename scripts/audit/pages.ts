/**
 * The eight page kinds the audits visit, found in a built site: home, a
 * category, a subcategory, an article, the authors list, an author, the HTML
 * sitemap and the 404 page (a path that does not exist, served with 404).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_PAGES } from '../../shared/errorPages.ts';

export interface AuditPage {
  kind: 'home' | 'category' | 'subcategory' | 'article' | 'authors' | 'author' | 'sitemap' | '404';
  path: string;
  /**
   * Lighthouse refuses to audit a document answered with status 404
   * ("unable to reliably load the page"), so it reads the same 404 page as
   * the file /404.html; axe reads the real 404 response.
   */
  lighthousePath?: string;
}

export const ARTICLE_PATH = '/articles/bankroll-management-bet-sizing';
const CATEGORY = 'betting-strategies';

async function firstPageIn(dist: string, folder: string): Promise<string> {
  const names = (await readdir(path.join(dist, folder))).sort();
  for (const name of names) {
    if (name === 'page') continue;
    if (
      await stat(path.join(dist, folder, name, 'index.html')).then(
        () => true,
        () => false,
      )
    )
      return `/${folder}/${name}`;
  }
  throw new Error(`no page under /${folder} in ${dist}`);
}

export async function auditPages(dist: string): Promise<AuditPage[]> {
  return [
    { kind: 'home', path: '/' },
    { kind: 'category', path: `/${CATEGORY}` },
    { kind: 'subcategory', path: await firstPageIn(dist, CATEGORY) },
    { kind: 'article', path: ARTICLE_PATH },
    { kind: 'authors', path: '/authors' },
    { kind: 'author', path: await firstPageIn(dist, 'authors') },
    { kind: 'sitemap', path: '/sitemap' },
    { kind: '404', path: '/no-such-page', lighthousePath: `/${ERROR_PAGES.notFound.file}` },
  ];
}
