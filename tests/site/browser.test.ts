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

describe('an article with a table, on a phone', () => {
  it.each([320, 375])('at %i px: the page stays the screen wide, the table scrolls in its box, by keyboard too, named for a screen reader', async (width) => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 800 });
    // The bundled articles whose tables are widest (a grid column as wide as its table pushed the page to 426-574 px).
    for (const article of ['/articles/understanding-betting-odds', '/articles/house-edge-explained']) {
      await page.goto(server.url + article);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), article).toBeLessThanOrEqual(width);
      const box = page.locator('.article-body .table-scroll').first();
      expect(await box.evaluate((element) => element.getBoundingClientRect().right)).toBeLessThanOrEqual(width);
      expect(
        await page
          .locator('.article-body p')
          .first()
          .evaluate((element) => element.getBoundingClientRect().right),
      ).toBeLessThanOrEqual(width);
      // Reached with Tab (from the element before it) and scrolled with the arrow keys when it is wider than the screen.
      await box.evaluate((element) => (element.previousElementSibling as HTMLElement | null)?.setAttribute('tabindex', '-1'));
      await box.evaluate((element) => (element.previousElementSibling as HTMLElement | null)?.focus());
      await page.keyboard.press('Tab');
      expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
      const wide = await box.evaluate((element) => element.scrollWidth > element.clientWidth);
      await page.keyboard.press('ArrowRight');
      if (wide) await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      const snapshot = await box.ariaSnapshot();
      expect(snapshot.split('\n')[0]).toBe('- group "Table (scroll sideways to see all of it)":');
    }
    await page.close();
  });
});

describe('a short window (a phone held sideways, a page zoomed to 400 %)', () => {
  it('lets the header scroll away, where a tall window keeps it on screen', async () => {
    const page = await browser.context.newPage();
    for (const [width, height, position] of [
      [568, 320, 'static'],
      [320, 256, 'static'],
      [375, 800, 'sticky'],
      [1280, 800, 'sticky'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(server.url + '/articles/house-edge-explained');
      await page.mouse.wheel(0, 600);
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0);
      const header = await page.evaluate(() => document.getElementById('site-header')!.getBoundingClientRect().bottom);
      if (position === 'static') expect(header, `${width} × ${height}`).toBeLessThanOrEqual(0);
      else expect(header, `${width} × ${height}`).toBeGreaterThan(0);
    }
    await page.close();
  });
});
