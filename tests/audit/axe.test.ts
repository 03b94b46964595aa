/**
 * axe-core over the eight page kinds of the bundled site, at phone (375 px)
 * and desktop (1280 px) width, after hydration: no violations. The same pass
 * runs in `npm run audit`, next to Lighthouse.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { auditPages, type AuditPage } from '../../scripts/audit/pages.ts';
import { describeViolations, runAxe } from '../../scripts/audit/axe.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { BUNDLED_CONTENT, tempDir } from '../site/helpers.ts';

let server: RunningServer;
let browser: Browser;
let pages: AuditPage[];

beforeAll(async () => {
  const out = path.join(await tempDir('felt-axe-'), 'dist');
  await buildSite({ contentDir: BUNDLED_CONTENT, outDir: out });
  pages = await auditPages(out);
  server = await startServer({ root: out, port: 0 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each([375, 1280])('axe at %i px', (width) => {
  it('finds no violations on home, category, subcategory, article, authors, author, sitemap and 404', async () => {
    const found: Record<string, string[]> = {};
    for (const { kind, path: pagePath } of pages) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(server.url + pagePath, { waitUntil: 'networkidle' });
      expect(response?.status(), pagePath).toBe(kind === '404' ? 404 : 200);
      const violations = describeViolations(await runAxe(page));
      if (violations.length) found[`${kind} ${pagePath}`] = violations;
      await page.close();
    }
    expect(found).toEqual({});
  });
});

describe.each([375, 1280])('axe with the search results open at %i px', (width) => {
  it('finds no violations on the home page, whose category sections share names with the result groups', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    await page.locator('.search-input').fill('bet');
    await page.waitForSelector('.search-results .search-group');
    expect(describeViolations(await runAxe(page))).toEqual([]);
    await page.close();
  });
});
