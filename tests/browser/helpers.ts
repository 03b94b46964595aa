/**
 * Shared set-up of the browser tests: the bundled content built once per
 * test file into a temp folder, served by `felt serve`'s server on
 * 127.0.0.1 (a secure context, so the service worker registers), and
 * Chromium on a fresh profile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { buildSite, type BuildResult } from '../../site/build/build.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../site/serve/server.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';

export const CONTENT = fileURLToPath(new URL('../../content', import.meta.url));

export interface Site {
  url: string;
  outDir: string;
  build: BuildResult;
  server: RunningServer;
  browser: Browser;
  close(): Promise<void>;
}

export interface SiteOptions {
  serve?: Partial<ServeOptions>;
  /** 'block' where tests intercept requests: page.route() does not see what a service worker fetches. */
  serviceWorkers?: 'allow' | 'block';
}

export async function startSite(options: SiteOptions = {}): Promise<Site> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'felt-browser-'));
  const outDir = path.join(dir, 'dist');
  const build = await buildSite({ contentDir: CONTENT, outDir });
  const server = await startServer({ root: outDir, port: 0, ...options.serve });
  const browser = await launchChromium({ serviceWorkers: options.serviceWorkers ?? 'allow' });
  return {
    url: server.url,
    outDir,
    build,
    server,
    browser,
    close: async () => {
      await browser.close();
      await server.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Console errors and warnings, and uncaught exceptions, of a page. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('registration blocked by Playwright')) return;
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/**
 * Opens a page at a width and waits until its islands are hydrated. They
 * hydrate on the reader's first interaction (site/client/runtime/wake.ts):
 * the pointer moves over the page first, as a desktop reader's does.
 * { wake: false } leaves that to the test.
 */
export async function open(site: Site, pagePath: string, width = 1280, { wake = true } = {}): Promise<Page> {
  const page = await site.browser.context.newPage();
  await page.setViewportSize({ width, height: 800 });
  await page.goto(site.url + pagePath);
  await waitForRuntime(page);
  if (wake) await wakeIslands(page);
  return page;
}

export async function wakeIslands(page: Page): Promise<void> {
  await page.mouse.move(width(page) - 2, 400);
  await page.waitForFunction(() => document.documentElement.dataset.feltHydrated === 'true');
}

function width(page: Page): number {
  return page.viewportSize()?.width ?? 1280;
}

export async function waitForRuntime(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.feltReady === 'true');
}

/** Waits until check() holds (vitest's expect.poll stalls on arrays that fill up late). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How long a page's close is waited for before the test goes on without it. */
const CLOSE_WAIT_MS = 10_000;

/**
 * Closes a page; its routes go first (a page with a route in flight can hang on close). A close still pending after
 * CLOSE_WAIT_MS is left to the browser's own close at the end of the file, with a warning: the test's assertions are
 * done by then. Beside heavy builds, navigation.test.ts's two-slash link test (a page closed while a full page load it
 * started may be in flight) once ran into its 60 s limit after its assertions, in this close or the click before it.
 */
export async function closePage(page: Page): Promise<void> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'waited'>((resolve) => (timer = setTimeout(() => resolve('waited'), CLOSE_WAIT_MS)));
  const closing = page.close().then(() => 'closed' as const);
  closing.catch(() => undefined); // a close that fails after the wait is over is not this test's failure
  const outcome = await Promise.race([closing, waited]);
  clearTimeout(timer);
  if (outcome === 'waited') console.warn(`closing ${page.url()} took more than ${CLOSE_WAIT_MS / 1000} s; left to the browser's close`);
}
