/**
 * axe-core over the eight page kinds of the bundled site and the search
 * results page, at phone (375 px) and desktop (1280 px) width, in the light
 * and the dark colour scheme (issue 18): no violations. The same pass
 * runs in `npm run audit`, next to Lighthouse.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { auditPages, type AuditPage } from '../../scripts/audit/pages.ts';
import { describeViolations, runAxe } from '../../scripts/audit/axe.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { waitForRuntime } from '../browser/helpers.ts';
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

const SCHEMES = ['light', 'dark'] as const;

// Each page is loaded once per width and audited in both colour schemes: the scheme is a media feature the
// stylesheet answers as it changes (the paper colour below proves it applied), so a second load would only cost time.
describe.each([375, 1280])('axe at %i px', (width) => {
  it('finds no violations on home, category, subcategory, article, authors, author, sitemap, 404 and the search results, light and dark', async () => {
    const found: Record<string, string[]> = {};
    const visits = [...pages, { kind: 'search', path: '/search?q=poker' }];
    for (const { kind, path: pagePath } of visits) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: SCHEMES[0] });
      const response = await page.goto(server.url + pagePath, { waitUntil: 'load' });
      expect(response?.status(), pagePath).toBe(kind === '404' ? 404 : 200);
      await waitForRuntime(page);
      if (kind === 'search') await page.waitForSelector('.search-page-list a');
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        // The scheme really applies (issue 18): dark paper in dark mode, light paper otherwise.
        const paper = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(paper, `${pagePath} paper, ${scheme}`).toBe(scheme === 'dark' ? 'rgb(17, 22, 20)' : 'rgb(251, 250, 246)');
        const violations = describeViolations(await runAxe(page));
        if (violations.length) found[`${kind} ${pagePath}, ${scheme}`] = violations;
      }
      await page.close();
    }
    expect(found).toEqual({});
    // 18 axe runs: 21 s alone, a minute beside the rest of npm test.
  }, 240_000);
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
