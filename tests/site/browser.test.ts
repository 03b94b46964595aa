/**
 * A visitor's first look: home, a category and an article in Chromium at
 * phone and desktop widths, with the header, footer and article text there,
 * and the page hydrating without errors or warnings.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { BUNDLED_CONTENT, tempDir } from './helpers.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const out = path.join(await tempDir(), 'dist');
  await buildSite({ contentDir: BUNDLED_CONTENT, outDir: out });
  server = await startServer({ root: out, port: 0 });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const PAGES = [
  { path: '/', text: 'Betting and poker, explained' },
  { path: '/betting-strategies', text: 'Betting Strategies' },
  { path: '/articles/bankroll-management-bet-sizing', text: 'A bankroll is a sum set aside only for betting' },
];

describe.each([375, 1280])('at %i px', (width) => {
  it.each(PAGES)('$path shows header, footer and its text, and hydrates cleanly', async ({ path: pagePath, text }) => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(server.url + pagePath, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await expect.poll(() => page.locator('header#site-header .logo').isVisible()).toBe(true);
    expect(await page.locator('header#site-header input[type="search"]').getAttribute('placeholder')).toBe('Search');
    expect(await page.locator('footer.site-footer').innerText()).toMatch(/Privacy Policy[\s\S]*Terms of Use/);
    expect(await page.locator('main').innerText()).toContain(text);
    // The page must not scroll sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The menu (a <details>) opens on a click, hydrated or not.
    await page.locator('.menu-button').click();
    await expect.poll(() => page.locator('.category-menu').getAttribute('open')).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });
});
