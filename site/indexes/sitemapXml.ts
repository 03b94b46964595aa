/**
 * sitemap.xml per the sitemaps.org protocol. Past 50,000 URLs (the
 * protocol's limit per file) sitemap.xml becomes an index over
 * sitemap-1.xml, sitemap-2.xml, …
 */
import { escapeXml } from './xml.ts';

export const MAX_URLS_PER_SITEMAP = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface SitemapFile {
  file: string;
  xml: string;
}

function urlset(entries: SitemapEntry[]): string {
  const rows = entries.map((e) => `<url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows.join('\n')}\n</urlset>\n`;
}

export function buildSitemaps(siteUrl: string, entries: SitemapEntry[], perFile = MAX_URLS_PER_SITEMAP): SitemapFile[] {
  if (entries.length <= perFile) return [{ file: 'sitemap.xml', xml: urlset(entries) }];
  const files: SitemapFile[] = [];
  for (let i = 0; i * perFile < entries.length; i++) {
    files.push({ file: `sitemap-${i + 1}.xml`, xml: urlset(entries.slice(i * perFile, (i + 1) * perFile)) });
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
