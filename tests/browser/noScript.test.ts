/**
 * With JavaScript off the site still works as plain pages (DESIGN.md:
 * every route is real HTML): the content is there, links are links, and
 * nothing waits on the runtime.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { CONTENT } from './helpers.ts';

let dir: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'felt-nojs-'));
  await buildSite({ contentDir: CONTENT, outDir: path.join(dir, 'dist') });
  server = await startServer({ root: path.join(dir, 'dist'), port: 0 });
  browser = await launchChromium({ javaScriptEnabled: false });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('with JavaScript off', () => {
  it('reads an article and follows links as full page loads', async () => {
    const page = await browser.context.newPage();
    await page.goto(server.url + '/');
    expect(await page.locator('.search-input').getAttribute('placeholder')).toBe('Search');
    await page.click('main a[href^="/articles/"] >> nth=0');
    await page.waitForURL(/\/articles\//);
    expect(await page.locator('main[data-kind="article"] h1').isVisible()).toBe(true);
    // The copy button needs the script to copy: without it the page offers no button that does nothing.
    expect(await page.locator('.copy-link').count()).toBe(1);
    expect(await page.locator('.copy-link').isVisible()).toBe(false);
    expect(await page.locator('.article-meta').isVisible()).toBe(true);
    await page.click('footer a[href="/betting-strategies"]');
    await page.waitForURL(/\/betting-strategies$/);
    expect(await page.locator('main').getAttribute('data-kind')).toBe('category');
    await page.close();
  });
});
