/**
 * The README's screenshots: home, a listing and an article of the bundled
 * site at phone (375 px) and desktop (1280 px) width, in the light and the
 * dark colour scheme (issue 18), taken with playwright-core and Debian's
 * Chromium into docs/screenshots/ as {page}-{size}.png and {page}-{size}-dark.png.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildSite } from '../../site/build/build.ts';
import { FELT_ROOT } from '../../shared/paths.ts';
import { startServer } from '../../site/serve/server.ts';
import { CHROMIUM, CHROMIUM_ARGS as CHROMIUM_FLAGS } from '../../tests/support/chromium.ts';
import { ARTICLE_PATH } from './pages.ts';

const SHOTS = [
  { name: 'home', path: '/' },
  { name: 'listing', path: '/betting-strategies' },
  { name: 'article', path: ARTICLE_PATH },
];
const SCHEMES = [
  { scheme: 'light', suffix: '' },
  { scheme: 'dark', suffix: '-dark' },
] as const;
const SIZES = [
  { name: 'phone', width: 375, height: 812, scale: 2 },
  { name: 'desktop', width: 1280, height: 900, scale: 1 },
];

export async function takeScreenshots(outDir = path.join(FELT_ROOT, 'docs', 'screenshots')): Promise<string[]> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'felt-shots-'));
  const dist = path.join(work, 'dist');
  await buildSite({ contentDir: path.join(FELT_ROOT, 'content'), outDir: dist });
  const server = await startServer({ root: dist, port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  const written: string[] = [];
  try {
    await mkdir(outDir, { recursive: true });
    for (const size of SIZES) {
      for (const { scheme, suffix } of SCHEMES) {
        const context = await browser.newContext({
          viewport: { width: size.width, height: size.height },
          deviceScaleFactor: size.scale,
          isMobile: size.name === 'phone',
          hasTouch: size.name === 'phone',
          colorScheme: scheme,
        });
        for (const shot of SHOTS) {
          const page = await context.newPage();
          await page.goto(server.url + shot.path, { waitUntil: 'networkidle' });
          const file = path.join(outDir, `${shot.name}-${size.name}${suffix}.png`);
          await page.screenshot({ path: file });
          written.push(file);
          await page.close();
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
  return written;
}
