/**
 * The service worker (issue #3, item 5): registered on localhost, it keeps
 * the pages a visitor opened, so they open again with the server gone;
 * anywhere but https and localhost, registration is a console error only.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, until, waitForRuntime, watchConsole, type Site } from './helpers.ts';
import { launchChromium } from '../support/chromium.ts';
import { listenOnLoopback } from '../support/loopback.ts';

let site: Site;

beforeAll(async () => {
  site = await startSite();
});

afterAll(async () => {
  await site?.close();
});

const ARTICLE = '/articles/bankroll-management-bet-sizing';

/** The home page, opened until the worker controls it. */
async function homeUnderWorker(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url + '/');
  await waitForRuntime(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null), 'the worker to control the page', 10_000).catch(async () => {
    await page.reload();
    await waitForRuntime(page);
  });
  return page;
}

/** The home page opened once the worker controls it, then the article reached by a link and kept by the worker. */
async function followToArticleUnderWorker(context: BrowserContext, url: string): Promise<Page> {
  const page = await homeUnderWorker(context, url);
  await page.click(`main a[href="${ARTICLE}"] >> nth=0`);
  await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
  await until(() => page.evaluate((path) => caches.match(path).then((hit) => hit !== undefined), ARTICLE), 'the article in the cache');
  return page;
}

/**
 * A host in front of felt serve on another loopback port, for a test to close (offline) without closing the site;
 * `redirectFolders`: answer /articles/x with a 301 to /articles/x/, as a Cloud Storage bucket does; `asked`: each
 * request's method and path, in the order they came.
 */
async function frontOf(
  siteUrl: string,
  redirectFolders: boolean,
  asked?: string[],
  host: { redirects?: Record<string, string>; sendsNoPolicy?: boolean } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const front = createServer((request, response) => {
    const address = new URL(request.url ?? '/', 'http://front');
    asked?.push(`${request.method} ${address.pathname}`);
    if (redirectFolders && /^\/articles\/[^/.]+$/.test(address.pathname)) {
      response.writeHead(301, { Location: `${address.pathname}/${address.search}` }).end();
      return;
    }
    const redirect = host.redirects?.[address.pathname];
    if (redirect) return void response.writeHead(302, { Location: redirect }).end();
    const upstream = httpRequest(`${siteUrl}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      // A host that sends none of the site's headers (a Cloud Storage bucket): the pages' own <meta> policy is all.
      if (host.sendsNoPolicy) delete answer.headers['content-security-policy'];
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  const listening = await listenOnLoopback(front);
  return { url: `http://127.0.0.1:${listening.port}`, close: listening.close };
}

describe('service worker', () => {
  it('registers on localhost with one cache named after the build', async () => {
    const page = await site.browser.context.newPage();
    const problems = watchConsole(page);
    await page.goto(site.url + '/');
    await waitForRuntime(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await until(() => page.evaluate(() => caches.keys().then((keys) => keys.length === 1)), 'the cache');
    expect(await page.evaluate(() => caches.keys())).toEqual([`felt-${site.build.compilationHash}`]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses any script of the site but /sw.js as a service worker (issue 16)', async () => {
    const page = await site.browser.context.newPage();
    await page.goto(site.url + '/');
    await waitForRuntime(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    // A script of this origin that would run as a worker (an operator's file from
    // content/static/, or a third party's through the proxy path), and the site's own bundle.
    await writeFile(path.join(site.outDir, 'widget.js'), 'self.addEventListener("fetch", () => {});');
    const bundle = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[src^="/assets/"]')!.src);
    for (const script of ['/widget.js', bundle, '/__third-party-proxy?url=https%3A%2F%2Fwww.googletagmanager.com%2Fgtag%2Fjs']) {
      const outcome = await page.evaluate(
        (url) =>
          navigator.serviceWorker.register(url, { scope: '/' }).then(
            () => 'registered',
            (error: Error) => error.message,
          ),
        script,
      );
      expect(outcome, script).toMatch(/403/);
    }
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration('/').then((registration) => registration?.active?.scriptURL))).toBe(
      `${site.url}/sw.js`,
    );
    await page.close();
  });

  it('only logs an error where the site is neither https nor localhost', async () => {
    const page = await site.browser.context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // The same site under another name: http://felt.test is not a secure context.
    await page.route('http://felt.test/**', async (route) => {
      const response = await route.fetch({ url: route.request().url().replace('http://felt.test', site.url) });
      await route.fulfill({ response });
    });
    await page.goto('http://felt.test/');
    await waitForRuntime(page);
    expect(errors.filter((e) => e.includes('service worker'))).toHaveLength(1);
    expect(await page.evaluate(() => 'serviceWorker' in navigator && navigator.serviceWorker.controller)).toBeFalsy();
    await page.close();
  });

  it("retires the old caches when a new build's worker takes over", async () => {
    // A browser of its own: in the shared one, Chromium 156 sometimes keeps a new worker waiting behind the worker
    // that served the pages the tests before this one opened and closed, however long it waits (seen with three).
    const browser = await launchChromium({ serviceWorkers: 'allow' });
    const file = path.join(site.outDir, 'sw.js');
    const worker = await readFile(file, 'utf8');
    try {
      const page = await browser.context.newPage();
      await page.goto(site.url + '/');
      await waitForRuntime(page);
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.evaluate(() => caches.open('felt-an-older-build').then((cache) => cache.put('/old', new Response('old'))));
      // A new build: the same worker with another hash.
      const next = 'a1b2c3d4e5f60718';
      await writeFile(file, worker.replaceAll(site.build.compilationHash, next));
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration?.update()));
      // The new worker is fetched, installed and activated before it retires the caches: on a loaded machine (a fresh
      // clone's .ci/run beside a large deletion, 2026-11-30) that took past until()'s ten seconds; five runs alone did not.
      await until(
        async () => {
          const keys = await page.evaluate(() => caches.keys());
          return keys.every((key) => key === `felt-${next}`);
        },
        'the old caches to go',
        30_000,
      );
    } finally {
      // The next test opens the site as this build made it.
      await writeFile(file, worker);
      await browser.close();
    }
  });

  it("opens a page again offline on a host that redirects a page's address to its folder, as Cloud Storage does", async () => {
    // In front of felt serve, as a bucket answers: /articles/x is a 301 to /articles/x/.
    const { url, close } = await frontOf(site.url, true);
    const browser = await launchChromium();
    try {
      // Reached by a link: the router's fetch of the page is redirected, and the worker keeps what it got.
      const page = await followToArticleUnderWorker(browser.context, url);
      await close(); // offline: the host answers nothing any more
      // The browser remembers the 301 and asks for /articles/x/: the worker has the page under both addresses.
      await page.goto(url + ARTICLE);
      await page.waitForSelector('main[data-kind="article"] h1');
      expect(await page.locator('main h1').innerText()).toBe('Bankroll Management: How to Size Your Bets');
      await page.close();
    } finally {
      await close().catch(() => undefined);
      await browser.close();
    }
  });

  it('opens a page first opened with a slash at its end again offline without it, and the other way round', async () => {
    const { url, close } = await frontOf(site.url, false);
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(url + '/authors/');
      await waitForRuntime(page);
      await page.evaluate(() => navigator.serviceWorker.ready);
      await until(() => page.evaluate(() => caches.match('/authors/').then((hit) => hit !== undefined)), 'the page in the cache');
      await close();
      await page.goto(url + '/authors');
      await page.waitForSelector('main[data-kind="authors"]');
      await page.close();
    } finally {
      await close().catch(() => undefined);
      await browser.close();
    }
  });

  it('asks the host once for each file of a page reached by a link (missing, or written with a slash at its end) or of a missing page loaded in full', async () => {
    const asked: string[] = [];
    const { url, close } = await frontOf(site.url, false, asked);
    const browser = await launchChromium();
    try {
      const page = await homeUnderWorker(browser.context, url);
      const follow = async (href: string, kind: string) => {
        await page.evaluate((target) => {
          const link = Object.assign(document.createElement('a'), { href: target, textContent: target });
          document.getElementById('main')!.append(link);
          link.click();
        }, href);
        await page.waitForFunction((wanted) => document.getElementById('main')?.dataset.kind === wanted, kind);
      };
      await follow('/authors/', 'authors');
      await follow('/no-such-page', 'notFound');
      // The worker keeps the files the router read (the page data and the document, the 404 page's for a missing
      // one) once the page is on screen: by then they are in its cache, and what it would fetch again it fetches at once.
      await until(() => page.evaluate(() => caches.match('/404.html').then((hit) => hit !== undefined)), 'the 404 page in the cache');
      await page.waitForTimeout(1000);
      const count = (line: string) => asked.filter((one) => one === line).length;
      expect(count('GET /authors') + count('GET /authors/')).toBe(1);
      expect(count('GET /page-data/authors/page-data.json')).toBe(1);
      // A missing page: its document and data asked once each (a 404 each), then the HEAD that confirms it.
      expect(count('GET /no-such-page')).toBe(1);
      expect(count('GET /page-data/no-such-page/page-data.json')).toBe(1);
      expect(count('HEAD /no-such-page')).toBe(1);
      expect(count('GET /404.html')).toBe(1);
      // A missing address loaded in full: its 404 is not asked for again to be kept.
      await page.goto(url + '/gone-too');
      await waitForRuntime(page);
      await page.waitForTimeout(1000);
      expect(count('GET /gone-too')).toBe(1);
      await page.close();
    } finally {
      await close();
      await browser.close();
    }
  });

  it("keeps no other site's answer that a redirect led to, on a host that sends no policy; Back to a //host address asks no other host", async () => {
    // Another origin that lets everyone read it (Access-Control-Allow-Origin: *), reached by a redirect of this site's
    // (a retraction's --redirect, a host's rule): kept under this site's address and replayed offline, its markup ran
    // as this site.
    const elsewhere: string[] = [];
    const other = createServer((request, response) => {
      elsewhere.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'Content-Type': 'text/html', 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' });
      response.end('<main id="main">elsewhere<img src="x" onerror="window.__elsewhere = 1"></main>');
    });
    const otherSite = await listenOnLoopback(other);
    const otherUrl = `http://127.0.0.1:${otherSite.port}`;
    const { url, close } = await frontOf(site.url, false, undefined, {
      sendsNoPolicy: true,
      redirects: { '/articles/gone': `${otherUrl}/page.html`, '/assets/gone-AAAAAAAA.css': `${otherUrl}/style.css` },
    });
    const browser = await launchChromium();
    try {
      const page = await homeUnderWorker(browser.context, url);
      expect(await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'))).toContain(
        "script-src 'self'",
      );
      // What a page sends its worker to keep (the addresses it loaded and prefetched), and a hashed asset fetched through it.
      await page.evaluate(() => navigator.serviceWorker.controller!.postMessage({ type: 'felt-cache', urls: ['/articles/gone'] }));
      await page.evaluate(() => fetch('/assets/gone-AAAAAAAA.css').catch(() => undefined));
      await until(() => elsewhere.length >= 2, 'the other site asked for both');
      await page.waitForTimeout(500);
      const kept = await page.evaluate(async () => {
        const cache = await caches.open((await caches.keys())[0]!);
        return (await cache.keys()).map((request) => new URL(request.url).pathname).filter((path) => path.includes('gone') || path.endsWith('.html'));
      });
      expect(kept).toEqual([]);

      // An address whose path is //host/x, loaded in full (the site's 404), then a page reached by the router, then
      // Back: the router never fetches it itself, where its HEAD would go to that host.
      elsewhere.length = 0;
      const hostPath = `//127.0.0.1:${otherSite.port}/tracker`;
      await page.goto(url + hostPath);
      await waitForRuntime(page);
      await page.evaluate(() => {
        const link = Object.assign(document.createElement('a'), { href: '/authors', textContent: 'authors' });
        document.getElementById('main')!.append(link);
        link.click();
      });
      await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'authors');
      await page.goBack();
      await page.waitForFunction((wanted) => location.pathname === wanted && document.getElementById('main')?.dataset.kind === 'notFound', hostPath);
      await page.waitForTimeout(500);
      expect(elsewhere).toEqual([]);
      expect(await page.evaluate(() => (window as { __elsewhere?: number }).__elsewhere)).toBeUndefined();
      await page.close();
    } finally {
      await close();
      await otherSite.close();
      await browser.close();
    }
  });

  it('opens a visited page again offline, and an article reached by a link', async () => {
    // The worker keeps the page and what it loaded.
    const page = await followToArticleUnderWorker(site.browser.context, site.url);
    await until(() => page.evaluate(() => caches.match('/').then((hit) => hit !== undefined)), 'the home page in the cache');

    await site.server.close(); // offline: nothing answers any more
    await page.reload();
    await page.waitForSelector('main[data-kind="article"] h1');
    expect(await page.locator('main h1').innerText()).toBe('Bankroll Management: How to Size Your Bets');
    await page.goto(site.url + '/');
    await page.waitForSelector('main[data-kind="home"]');
    // Styles came from the cache too.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).position)).toBe('sticky');
    // A page never opened is the offline notice.
    const response = await page.goto(site.url + '/terms');
    expect(response?.status()).toBe(503);
    expect(await page.locator('body').innerText()).toContain('You are offline');
    // Styled as the site (issue 18, item 6): its header band and a home link that reads as words.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).position)).toBe('sticky');
    expect(await page.locator('main a[href="/"]').innerText()).toBe('Back to the home page');
    await page.close();
  });
});
