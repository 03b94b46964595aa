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

/**
 * Sitemap files made as their rows come (sitemapRow), in order: at most one file's rows are held, however large the
 * site. The rows of a whole site held until the end were 310 B an article on the build's heap (a heap snapshot at
 * 50,000; README "Memory as the site grows"). The first file is written once a row past a file's worth arrives: the
 * site then needs an index (sitemap.xml) over sitemap-1.xml, sitemap-2.xml, …; up to a file's worth, sitemap.xml
 * holds them all.
 */
export class SitemapWriter {
  private rows: string[] = [];
  private readonly written: string[] = [];

  constructor(
    private readonly siteUrl: string,
    private readonly write: (file: SitemapFile) => void,
    private readonly perFile = MAX_URLS_PER_SITEMAP,
  ) {}

  add(row: string): void {
    if (this.rows.length === this.perFile) this.writeRows();
    this.rows.push(row);
  }

  /** Writes the rows still held, and the index if the site needed one. */
  finish(): void {
    if (this.written.length === 0) {
      this.write({ file: 'sitemap.xml', xml: urlset(this.rows) });
      return;
    }
    this.writeRows();
    const index = this.written.map((file) => `<sitemap><loc>${escapeXml(`${this.siteUrl}/${file}`)}</loc></sitemap>`).join('\n');
    this.write({
      file: 'sitemap.xml',
      xml: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${index}\n</sitemapindex>\n`,
    });
  }

  private writeRows(): void {
    const file = `sitemap-${this.written.length + 1}.xml`;
    this.write({ file, xml: urlset(this.rows) });
    this.written.push(file);
    this.rows = [];
  }
}

/** The sitemap files of these rows (sitemapRow), in order. */
export function buildSitemaps(siteUrl: string, rows: readonly string[], perFile = MAX_URLS_PER_SITEMAP): SitemapFile[] {
  const files: SitemapFile[] = [];
  const writer = new SitemapWriter(siteUrl, (file) => files.push(file), perFile);
  for (const row of rows) writer.add(row);
  writer.finish();
  return files;
}

export function robotsTxt(siteUrl: string): string {
  // /slice-data/ is no longer written, but an older deployment may have left files there (routes/outputs.ts).
  return `User-agent: *\nAllow: /\nDisallow: /page-data/\nDisallow: /slice-data/\nDisallow: /__third-party-proxy\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
}
