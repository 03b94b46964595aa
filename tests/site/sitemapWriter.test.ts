import { describe, expect, it } from 'vitest';
import { SitemapWriter, sitemapRow, type SitemapFile } from '../../site/indexes/sitemapXml.ts';

const row = (i: number) => sitemapRow(`https://feltmagazine.example/articles/a-${i}`, '2026-05-02');

function writerOf(perFile: number) {
  const files: SitemapFile[] = [];
  const writer = new SitemapWriter('https://feltmagazine.example', (file) => files.push(file), perFile);
  return { files, writer };
}

describe('sitemap files written as their rows come', () => {
  it("writes a full file once a row past it arrives, before the site's last row: at most one file's rows are held", () => {
    const { files, writer } = writerOf(2);
    for (let i = 0; i < 2; i++) writer.add(row(i));
    expect(files).toEqual([]);
    writer.add(row(2));
    expect(files.map((f) => f.file)).toEqual(['sitemap-1.xml']);
    expect(files[0]!.xml).toContain('/articles/a-0<');
    expect(files[0]!.xml).toContain('/articles/a-1<');
    expect(files[0]!.xml).not.toContain('/articles/a-2<');
    for (let i = 3; i < 5; i++) writer.add(row(i));
    expect(files.map((f) => f.file)).toEqual(['sitemap-1.xml', 'sitemap-2.xml']);
    writer.finish();
    expect(files.map((f) => f.file)).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    expect(files[2]!.xml).toContain('/articles/a-4<');
    expect(files[3]!.xml).toContain('<sitemapindex');
    expect(files[3]!.xml.match(/<sitemap>/g)).toHaveLength(3);
    expect(files[3]!.xml).toContain('<loc>https://feltmagazine.example/sitemap-3.xml</loc>');
  });

  it("a file's worth of rows exactly, or none, is one sitemap.xml and no index", () => {
    const full = writerOf(2);
    full.writer.add(row(0));
    full.writer.add(row(1));
    full.writer.finish();
    expect(full.files.map((f) => f.file)).toEqual(['sitemap.xml']);
    expect(full.files[0]!.xml).toContain('<urlset');
    expect(full.files[0]!.xml.match(/<url>/g)).toHaveLength(2);

    const empty = writerOf(2);
    empty.writer.finish();
    expect(empty.files).toEqual([{ file: 'sitemap.xml', xml: expect.stringContaining('<urlset') }]);
  });
});
