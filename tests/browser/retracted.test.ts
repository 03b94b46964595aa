/**
 * Issue 12, item 5, as a reader meets it: the old address of a retracted
 * article answers 410 with a page that says it was removed, in the site's
 * interface language, and a retraction with a redirect lands the reader on
 * the target page.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const contentDir = await fixtureCopy();
  const folder = path.join(contentDir, 'retracted', 'en_US');
  await mkdir(folder, { recursive: true });
  const record = (slug: string, title: string, redirect?: string) =>
    JSON.stringify({ slug, locale: 'en_US', title, retractedAt: '2026-03-01T02:00:00.000Z', by: 'night editor', reason: 'wrong odds', redirect });
  await writeFile(path.join(folder, 'river-bets.json'), record('river-bets', 'River Bets'));
  await writeFile(path.join(folder, 'moved-guide.json'), record('moved-guide', 'Moved Guide', '/articles/poker-basics'));
  const dist = path.join(await tempDir(), 'dist');
  await buildSite({ contentDir, outDir: dist, threads: 1 });
  server = await startServer({ root: dist, port: 0 });
  browser = await launchChromium({ serviceWorkers: 'block' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a retracted article in the browser', () => {
  it('shows the gone page with status 410, its title and a way home', async () => {
    const page = await browser.context.newPage();
    const response = await page.goto(`${server.url}/articles/river-bets`);
    expect(response?.status()).toBe(410);
    expect(await page.locator('h1').innerText()).toBe('This article was removed');
    expect(await page.locator('main').innerText()).toContain('“River Bets” is no longer published here.');
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US');
    // The site's stylesheet applies: the page looks like the 404 page, not bare HTML.
    expect(await page.locator('.error-page').evaluate((el) => getComputedStyle(el).textAlign)).not.toBe('');
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.close();
  });

  it('lands the reader of a redirected article on its target', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/articles/moved-guide`);
    await page.waitForURL(`${server.url}/articles/poker-basics`);
    expect(await page.locator('h1').first().innerText()).toBe('Poker Basics');
    // A static host that reads no _redirects serves the redirect page itself: its meta refresh moves the reader on.
    await page.goto(`${server.url}/articles/moved-guide/index.html`);
    await page.waitForURL(`${server.url}/articles/poker-basics`);
    await page.close();
  });
});
