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
import { buildSitemaps } from '../../site/indexes/sitemapXml.ts';
import { BUNDLED_CONTENT, tempDir } from '../site/helpers.ts';

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
  return entries.filter((e) => e.isFile() && e.name.endsWith(extension)).map((e) => path.join(e.parentPath, e.name)).sort();
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

describe('sitemap and feeds', () => {
  it('sitemap.xml validates against the sitemaps.org 0.9 schema', () => {
    expect(xmllint('--schema', path.join(SCHEMAS, 'sitemap.xsd'), path.join(dist, 'sitemap.xml'))).toBe('');
  });

  it('the schema really checks: a bad lastmod and a relative loc fail', async () => {
    const bad = path.join(work, 'bad-sitemap.xml');
    await writeFile(bad, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>/x</loc><lastmod>next week</lastmod></url>\n</urlset>\n');
    const messages = xmllint('--schema', path.join(SCHEMAS, 'sitemap.xsd'), bad);
    expect(messages).toMatch(/loc/);
    expect(messages).toMatch(/lastmod/);
  });

  it('past the per-file limit, the sitemap index and its parts validate too', async () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({ loc: `https://feltmagazine.example/articles/a-${i}`, lastmod: '2026-05-02' }));
    const files = buildSitemaps('https://feltmagazine.example', entries, 2);
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
