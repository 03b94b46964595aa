/**
 * The generated markup validates: every HTML file of a bundled-site build
 * passes html-validate (rules in .htmlvalidate.json), sitemap.xml passes the
 * sitemaps.org 0.9 schema and the feeds parse as XML, both with xmllint.
 *
 * .htmlvalidate.json starts from html-validate:recommended and turns off only
 * rules about style, not validity: attr-case (React writes dateTime and
 * autoComplete; HTML attribute names are case-insensitive), void-style
 * (<img/> and <img> are both valid), doctype-style, attribute-empty-style
 * (hidden=""), long-title (an SEO preference), valid-id in relaxed mode (HTML
 * ids need no leading letter; React's useId gives "_R_2_"), and wcag/h32: the
 * search form answers as the visitor types (SPEC: results from 3 characters),
 * a list of results is not a change of context, so there is nothing to submit.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HtmlValidate, StaticConfigLoader, type ConfigData } from 'html-validate';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { buildSitemaps, sitemapRow } from '../../site/indexes/sitemapXml.ts';
import { BUNDLED_CONTENT, fixtureCopy, tempDir } from '../site/helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMAS = path.join(ROOT, 'tests/fixtures/schemas');
let dist: string;
let work: string;

beforeAll(async () => {
  work = await tempDir('felt-markup-');
  dist = path.join(work, 'dist');
  await buildSite({ contentDir: BUNDLED_CONTENT, outDir: dist });
});

async function filesUnder(dir: string, extension: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(extension))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** xmllint's verdict: '' when valid, its messages otherwise. */
function xmllint(...args: string[]): string {
  const run = spawnSync('xmllint', ['--noout', ...args], { encoding: 'utf8' });
  if (run.error) throw new Error('xmllint is missing: apt-get install libxml2-utils (.ci/run installs it)');
  return run.status === 0 ? '' : run.stderr.trim();
}

describe('generated HTML', () => {
  it('passes html-validate on every page', async () => {
    const config = JSON.parse(await readFile(path.join(ROOT, '.htmlvalidate.json'), 'utf8')) as ConfigData;
    const validator = new HtmlValidate(new StaticConfigLoader({ ...config, root: true }));
    const files = await filesUnder(dist, '.html');
    expect(files.length).toBeGreaterThan(100);
    const errors: string[] = [];
    for (const file of files) {
      const report = await validator.validateString(await readFile(file, 'utf8'), file);
      for (const result of report.results) {
        for (const m of result.messages) errors.push(`${path.relative(dist, file)}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
      }
    }
    expect(errors).toEqual([]);
  });
});

describe('ids', () => {
  const idsOf = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]!);

  it('no page holds an id twice, even with an article whose headings are named after every id a page has (issue 16)', async () => {
    // The ids of felt's own markup, from a build of the fixture site.
    const content = await fixtureCopy();
    const first = path.join(path.dirname(content), 'first');
    await buildSite({ contentDir: content, outDir: first });
    const pageIds = new Set<string>();
    for (const file of await filesUnder(first, '.html')) for (const id of idsOf(await readFile(file, 'utf8'))) pageIds.add(id);
    expect([...pageIds]).toEqual(expect.arrayContaining(['main', 'announcer', 'site-header', 'footer-categories', 'related-heading']));
    // "## Site header" is slugified to site-header, the header's own id.
    const headings = [...pageIds].filter((id) => /^[a-z0-9-]+$/.test(id)).map((id) => `## ${id.replace(/-/g, ' ')}\n\nText.\n`);
    const article = path.join(content, 'articles/en_US/table-talk.md');
    await writeFile(article, `${await readFile(article, 'utf8')}\n${headings.join('\n')}`);
    const second = path.join(path.dirname(content), 'second');
    await buildSite({ contentDir: content, outDir: second });

    const validator = new HtmlValidate(new StaticConfigLoader({ root: true, rules: { 'no-dup-id': 'error' } }));
    const duplicates: string[] = [];
    for (const file of await filesUnder(second, '.html')) {
      const report = await validator.validateString(await readFile(file, 'utf8'), file);
      for (const result of report.results) for (const m of result.messages) duplicates.push(`${path.relative(second, file)}: ${m.message}`);
    }
    expect(duplicates).toEqual([]);
    // The contents still lead to the headings.
    const page = await readFile(path.join(second, 'articles/table-talk/index.html'), 'utf8');
    const tocTargets = [...page.matchAll(/<a href="#([^"]+)"/g)].map((match) => match[1]!);
    expect(tocTargets.length).toBeGreaterThanOrEqual(headings.length);
    for (const target of tocTargets)
      expect(
        idsOf(page).filter((id) => id === target),
        target,
      ).toHaveLength(1);
  });
});

describe('sitemap and feeds', () => {
  it('sitemap.xml validates against the sitemaps.org 0.9 schema', () => {
    expect(xmllint('--schema', path.join(SCHEMAS, 'sitemap.xsd'), path.join(dist, 'sitemap.xml'))).toBe('');
  });

  it('the schema really checks: a bad lastmod and a relative loc fail', async () => {
    const bad = path.join(work, 'bad-sitemap.xml');
    await writeFile(
      bad,
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>/x</loc><lastmod>next week</lastmod></url>\n</urlset>\n',
    );
    const messages = xmllint('--schema', path.join(SCHEMAS, 'sitemap.xsd'), bad);
    expect(messages).toMatch(/loc/);
    expect(messages).toMatch(/lastmod/);
  });

  it('past the per-file limit, the sitemap index and its parts validate too', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => sitemapRow(`https://feltmagazine.example/articles/a-${i}`, '2026-05-02'));
    const files = buildSitemaps('https://feltmagazine.example', rows, 2);
    expect(files.map((f) => f.file)).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    for (const { file, xml } of files) {
      const full = path.join(work, file);
      await writeFile(full, xml);
      expect(xmllint('--schema', path.join(SCHEMAS, file === 'sitemap.xml' ? 'siteindex.xsd' : 'sitemap.xsd'), full), file).toBe('');
    }
  });

  it('every feed parses as XML', async () => {
    const feeds = [path.join(dist, 'feed.xml'), ...(await filesUnder(path.join(dist, 'feeds'), '.xml'))];
    expect(feeds.length).toBeGreaterThanOrEqual(8);
    for (const feed of feeds) expect(xmllint(feed), feed).toBe('');
    expect(execFileSync('xmllint', ['--xpath', 'count(//item)', path.join(dist, 'feed.xml')], { encoding: 'utf8' }).trim()).not.toBe('0');
  });
});
