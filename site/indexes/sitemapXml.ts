/**
 * sitemap.xml per the sitemaps.org protocol. Past 50,000 URLs (the
 * protocol's limit per file) sitemap.xml becomes an index over
 * sitemap-1.xml, sitemap-2.xml, …
 */
import { escapeXml } from './xml.ts';

export const MAX_URLS_PER_SITEMAP = 50_000;

export interface SitemapFile {
  file: string;
  xml: string;
}

/**
 * A page's line in a sitemap. The build makes it as it meets the page, one string: at 100,000 articles an entry
 * object and its URL kept for 120,000 pages until the end were a rebuild's garbage to copy, and a second pass.
 */
export function sitemapRow(loc: string, lastmod?: string): string {
  return `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
}

function urlset(rows: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows.join('\n')}\n</urlset>\n`;
}

/** The sitemap files of these rows (sitemapRow), in order. */
export function buildSitemaps(siteUrl: string, rows: readonly string[], perFile = MAX_URLS_PER_SITEMAP): SitemapFile[] {
  if (rows.length <= perFile) return [{ file: 'sitemap.xml', xml: urlset(rows) }];
  const files: SitemapFile[] = [];
  for (let i = 0; i * perFile < rows.length; i++) {
    files.push({ file: `sitemap-${i + 1}.xml`, xml: urlset(rows.slice(i * perFile, (i + 1) * perFile)) });
  }
  const index = files.map((f) => `<sitemap><loc>${escapeXml(`${siteUrl}/${f.file}`)}</loc></sitemap>`).join('\n');
  files.push({
    file: 'sitemap.xml',
    xml: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${index}\n</sitemapindex>\n`,
  });
  return files;
}

export function robotsTxt(siteUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /page-data/\nDisallow: /slice-data/\nDisallow: /__third-party-proxy\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
}
