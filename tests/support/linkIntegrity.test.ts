/**
 * linkProblems with `going` (the objects a deploy removes) lets through one
 * thing only: a going page's link to another going page already deleted.
 * A going page's other missing links, its missing page data, and a staying
 * page's link to a deleted object are still reported.
 */
import { describe, expect, it } from 'vitest';
import { linkProblems } from './linkIntegrity.ts';

const SITE = 'https://felt.example';

const page = (...links: string[]) => Buffer.from(`<!doctype html><html><body>${links.map((link) => `<a href="${link}">x</a>`).join('')}</body></html>`);
const data = Buffer.from('{}');

/** A bucket mid-deploy: `kept` stays, `old` and `gone` are deleted (gone already), `old` links as told. */
function bucket(keptLinks: string[], oldLinks: string[]): Map<string, Buffer> {
  return new Map([
    ['index.html', page(...keptLinks)],
    ['page-data/index/page-data.json', data],
    ['articles/old/index.html', page(...oldLinks)],
    ['page-data/articles/old/page-data.json', data],
    ['page-data/articles/gone/page-data.json', data],
    ['app-2.js', Buffer.from('')],
  ]);
}
const going = new Set([
  'articles/old/index.html',
  'page-data/articles/old/page-data.json',
  'articles/gone/index.html',
  'page-data/articles/gone/page-data.json',
  'app-1.js',
]);

describe('linkProblems with the objects a deploy removes', () => {
  it('a going page that links to another going page, already deleted, is let through; without `going` it is reported', () => {
    const files = bucket(['/app-2.js'], ['/articles/gone', '/app-2.js']);
    expect(linkProblems(files, SITE, going)).toEqual([]);
    expect(linkProblems(files, SITE)).toEqual(['articles/old/index.html: links to /articles/gone, which is missing']);
  });

  it('a going page that links to a missing object that is not going is reported', () => {
    expect(linkProblems(bucket([], ['/articles/never']), SITE, going)).toEqual(['articles/old/index.html: links to /articles/never, which is missing']);
  });

  it('a going page that links to a going asset already deleted is reported: assets go after the pages', () => {
    expect(linkProblems(bucket([], ['/app-1.js']), SITE, going)).toEqual(['articles/old/index.html: links to /app-1.js, which is missing']);
  });

  it('a page that stays and links to a going page already deleted is reported', () => {
    expect(linkProblems(bucket(['/articles/gone'], []), SITE, going)).toEqual(['index.html: links to /articles/gone, which is missing']);
  });

  it('a going page without its page data, or cut short, is reported', () => {
    const files = bucket([], []);
    files.delete('page-data/articles/old/page-data.json');
    files.set('articles/old/index.html', Buffer.from('<!doctype html><html><body>'));
    expect(linkProblems(files, SITE, going)).toEqual(['articles/old/index.html: not a whole document', 'articles/old/index.html: its page data is missing']);
  });

  it('a going sitemap may list a going page already deleted; a staying one may not', () => {
    const sitemap = Buffer.from(`<urlset><url><loc>${SITE}/articles/gone</loc></url></urlset>`);
    const files = bucket([], []);
    files.set('sitemap-1.xml', sitemap);
    files.set('sitemap-0.xml', sitemap);
    expect(linkProblems(files, SITE, new Set([...going, 'sitemap-1.xml']))).toEqual(['sitemap-0.xml: lists /articles/gone, which is missing']);
  });
});
