/**
 * Client-side navigation (issue #3, items 3, 4 and 8): links render the
 * next page from its page data and its HTML's <main>, with every failure path of SPEC section 8,
 * the announcer, the slow notice, scroll on back and forward, prefetch and
 * clean hydration on every page kind.
 */
import type { Page, Request } from 'playwright-core';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { closePage, open, startSite, until, waitForRuntime, wakeIslands, watchConsole, type Site } from './helpers.ts';

let site: Site;

beforeAll(async () => {
  site = await startSite({ serviceWorkers: 'block' });
});

afterAll(async () => {
  await site?.close();
});

const ARTICLE = '/articles/bankroll-management-bet-sizing';
const ARTICLE_TITLE = 'Bankroll Management: How to Size Your Bets';

/** Document (full page) loads of a page, by path. */
function documentLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request: Request) => {
    if (request.resourceType() === 'document') loads.push(new URL(request.url()).pathname);
  });
  return loads;
}

/** A link to `href` placed in <main> and clicked, as a visitor would. */
async function clickLinkTo(page: Page, href: string): Promise<void> {
  await page.evaluate((target) => {
    const link = document.createElement('a');
    link.href = target;
    link.id = 'test-link';
    link.textContent = 'test link';
    document.getElementById('main')!.prepend(link);
  }, href);
  // Clicked from the page: page.click() would also wait on the navigation it starts. After this call returns, not
  // inside it: a click the browser follows at once (a link the router leaves alone) would end the call's page under it.
  await page.evaluate(() => void setTimeout(() => document.getElementById('test-link')!.click(), 0));
}

describe('client-side navigation', () => {
  it('goes from home to an article without a page load, and announces it', async () => {
    const page = await open(site, '/');
    const problems = watchConsole(page);
    const loads = documentLoads(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.click(`main a[href="${ARTICLE}"] >> nth=0`);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(new URL(page.url()).pathname).toBe(ARTICLE);
    expect(await page.title()).toBe(`${ARTICLE_TITLE} | Felt Magazine`);
    // The announcer is emptied, then filled on the next frame (so a screen reader hears it again): waited for, not read at once.
    await expect.poll(() => page.locator('#announcer').textContent()).toBe(`Navigated to ${ARTICLE_TITLE}`);
    expect(await page.evaluate(() => document.querySelector('link[rel="canonical"]')?.getAttribute('href'))).toBe(`https://feltmagazine.example${ARTICLE}`);
    expect(await page.evaluate(() => document.querySelector('meta[name="description"]')?.getAttribute('content'))).toBeTruthy();
    expect(await page.evaluate(() => document.querySelectorAll('meta[name="felt-head"] ~ title').length)).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // The same document: no load happened, and the article's copy button works there.
    expect(loads).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.waitForSelector('.copy-link');
    expect(problems).toEqual([]);
    await closePage(page);
  });

  it('goes Back over a fragment of a page opened as its index.html without loading it again', async () => {
    // A bucket serves /articles/x/index.html as it is: the router takes no such address, but Back from one of its
    // own fragments (a contents link) only scrolls, as in any page.
    const page = await open(site, `${ARTICLE}/index.html`);
    const loads = documentLoads(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const section = await page.locator('.toc a').first().getAttribute('href');
    await page.locator('.toc a').first().click();
    await page.waitForFunction((hash) => location.hash === hash, section);
    await page.goBack();
    await page.waitForFunction(() => location.hash === '');
    await page.waitForTimeout(300);
    expect(loads).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await closePage(page);
  });

  it('restores the scroll position on back and forward, and starts a new page at the top', async () => {
    const page = await open(site, '/');
    await page.evaluate(() => window.scrollTo({ top: 600, behavior: 'instant' }));
    await page.waitForFunction(() => window.scrollY === 600);
    await page.waitForTimeout(50);
    const link = page.locator(`main a[href="${ARTICLE}"] >> nth=0`);
    await link.evaluate((a) => a.scrollIntoView({ block: 'center', behavior: 'instant' }));
    const scrolled = await page.evaluate(() => window.scrollY);
    await page.waitForTimeout(50);
    await link.click();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo({ top: 300, behavior: 'instant' }));
    await page.waitForTimeout(50);
    await page.goBack();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'home');
    await until(async () => (await page.evaluate(() => window.scrollY)) === scrolled, 'the scroll position on back');
    await page.goForward();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    // Shown a second time from what was fetched the first: a copy each time, so the page is whole again.
    expect(await page.locator('main h1').textContent()).toBe(ARTICLE_TITLE);
    expect(await page.evaluate(() => document.head.querySelectorAll('meta[property="og:title"]').length)).toBe(1);
    await until(async () => (await page.evaluate(() => window.scrollY)) === 300, 'the scroll position on forward');
    await closePage(page);
  });

  it('shows each search again on back and forward between two searches of the search page', async () => {
    const page = await open(site, '/search?q=poker');
    const heading = () => page.locator('.search-page-for').textContent();
    await expect.poll(heading).toContain('poker');
    const loads = documentLoads(page);
    await clickLinkTo(page, '/search?q=roulette');
    await expect.poll(heading).toContain('roulette');
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('?q=poker');
    await expect.poll(heading).toContain('poker');
    await page.goForward();
    await expect.poll(heading).toContain('roulette');
    // All of it in the one document: the router, not the browser, showed each.
    expect(loads).toEqual([]);
    await closePage(page);
  });

  it('puts keyboard focus back on the link followed when the reader goes back, as a page load from the cache would', async () => {
    const page = await open(site, '/');
    const focused = () => page.evaluate(() => `${document.activeElement?.getAttribute('href') ?? document.activeElement?.id}`);
    // The second link to the article on the page (the home page shows it in two sections), reached and followed by keyboard.
    const links = page.locator(`main a[href="${ARTICLE}"]`);
    expect(await links.count()).toBeGreaterThan(1);
    await links.nth(1).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(await focused()).toBe('main');
    await page.goBack();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'home');
    await until(async () => (await focused()) === ARTICLE, 'focus on the link followed');
    expect(await page.evaluate((href) => [...document.querySelectorAll(`main a[href="${href}"]`)].indexOf(document.activeElement!), ARTICLE)).toBe(1);
    expect(await page.evaluate(() => document.activeElement!.matches(':focus-visible'))).toBe(true);
    // Tab goes on from there, not from the top of the page.
    const next = await page.evaluate(() => {
      const all = [...document.querySelectorAll('main a[href]')];
      return all[all.indexOf(document.activeElement!) + 1]!.getAttribute('href');
    });
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(next);
    await expect.poll(() => page.locator('#announcer').textContent()).toMatch(/^Navigated to /);
    // Forward again: the article starts from its <main>, as a new page does.
    await page.goForward();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(await focused()).toBe('main');
    await closePage(page);
  });

  it('shows the 404 page when page data is missing and HEAD confirms the page does not exist', async () => {
    const page = await open(site, '/');
    const loads = documentLoads(page);
    const heads: string[] = [];
    page.on('request', (r) => r.method() === 'HEAD' && heads.push(new URL(r.url()).pathname));
    await clickLinkTo(page, '/no-such-page');
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'notFound');
    expect(new URL(page.url()).pathname).toBe('/no-such-page');
    expect(await page.locator('main h1').textContent()).toBe('This page folded');
    expect(heads).toEqual(['/no-such-page']);
    expect(loads).toEqual([]);
    // No advertising on the error page, reached without a full load either (issue 18, item 6); back home it returns.
    expect(await page.locator('.new-url').isVisible()).toBe(false);
    await page.goBack();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'home');
    expect(await page.locator('.new-url').isVisible()).toBe(true);
    await closePage(page);
  });

  it('loads the page in full when its data is missing but HEAD says the page exists', async () => {
    const page = await open(site, '/');
    await page.route(`**/page-data${ARTICLE}/page-data.json`, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([ARTICLE]);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    await closePage(page);
  });

  // What the router's fetch of the page's HTML is answered with (the full load that follows is a document request,
  // not a fetch, and reaches the server): each is not this site's HTML for the page, so the browser loads it itself.
  const PLANTED = '<!doctype html><main id="main"><p id="planted">planted</p></main>';
  // Another site, on another loopback port (a redirect is followed by the browser, not by the test's routes): it
  // answers with a <main> and lets any page read it, so only the router's own check keeps that <main> out.
  const elsewhere = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html', 'Access-Control-Allow-Origin': '*' }).end(PLANTED);
  });
  let other: Awaited<ReturnType<typeof listenOnLoopback>>;
  let ELSEWHERE = '';
  // felt serve's CSP (connect-src 'self') would stop a fetch that leaves the site; a static host may send none.
  let bare: Browser;
  beforeAll(async () => {
    bare = await launchChromium({ bypassCSP: true, serviceWorkers: 'block' });
    other = await listenOnLoopback(elsewhere);
    // Another port is another origin. (Not "localhost": Chromium's local network access rules refuse that name here.)
    ELSEWHERE = `http://127.0.0.1:${other.port}`;
  });
  afterAll(async () => {
    await other?.close();
    await bare?.close();
  });
  const NOT_THE_PAGE = [
    ['fails', () => 'abort' as const],
    ['has no <main>', () => ({ status: 200, contentType: 'text/html', body: '<!doctype html><p>no main here</p>' })],
    ['is not HTML', () => ({ status: 200, contentType: 'text/plain', body: PLANTED })],
    ['redirects to another page', () => ({ status: 302, headers: { Location: '/privacy-policy' } })],
    ['redirects to another site', () => ({ status: 302, headers: { Location: `${ELSEWHERE}/elsewhere` } })],
    // A deploy halfway (one of the two files up) or an old page's data left beside the page now at its address.
    ['is another kind of page', () => ({ status: 200, contentType: 'text/html', body: PLANTED.replace('id="main"', 'id="main" data-kind="info"') })],
    ['is from another build', () => 'older build' as const],
  ] as const;

  it.each(NOT_THE_PAGE)('loads the page in full when its page data is good but its HTML %s', async (_answer, answer) => {
    const reply = answer();
    const page = await bare.context.newPage();
    await page.goto(site.url + '/');
    await waitForRuntime(page);
    await page.route(`**${ARTICLE}`, async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.continue();
      if (reply === 'abort') return route.abort();
      if (reply !== 'older build') return route.fulfill(reply);
      const response = await route.fetch();
      const body = (await response.text()).replace(/<meta name="felt-build" content="[^"]*">/, '<meta name="felt-build" content="0000000000000000">');
      return route.fulfill({ response, body });
    });
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([ARTICLE]);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(await page.locator('#planted').count()).toBe(0);
    await closePage(page);
  });

  it('copies no <noscript> into the page: parsed with script off, its inside would be markup where a full load shows text', async () => {
    const page = await open(site, '/');
    await page.route(`**${ARTICLE}`, async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.continue();
      const response = await route.fetch();
      const body = (await response.text()).replace(/(<main\b[^>]*>)/, '$1<noscript><p id="planted">planted</p></noscript>');
      return route.fulfill({ response, body });
    });
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(loads).toEqual([]);
    expect(await page.locator('#planted').count()).toBe(0);
    expect(await page.locator('main noscript').count()).toBe(0);
    await closePage(page);
  });

  it("follows a static host's redirect to the page's folder (its address and a slash) and renders it without a load", async () => {
    const page = await open(site, '/');
    await page.route(`**${ARTICLE}`, (route) =>
      route.request().resourceType() === 'fetch' ? route.fulfill({ status: 301, headers: { Location: `${ARTICLE}/` } }) : route.continue(),
    );
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(await page.title()).toBe(`${ARTICLE_TITLE} | Felt Magazine`);
    expect(loads).toEqual([]);
    await closePage(page);
  });

  it('leaves a link whose path starts with two slashes to the browser: fetched alone, it would be another host', async () => {
    const page = await open(site, '/');
    const fetched: string[] = [];
    page.on('request', (r) => r.resourceType() === 'fetch' && fetched.push(r.url()));
    const loads = documentLoads(page);
    await clickLinkTo(page, `/.//${ARTICLE.slice(1)}`);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([`/${ARTICLE}`]);
    // The router fetched nothing for it: neither its page data nor, off the site, its "HTML".
    expect(fetched.filter((u) => u.includes(ARTICLE.slice(1)))).toEqual([]);
    await closePage(page);
  });

  it('treats invalid page data like missing data', async () => {
    const page = await open(site, '/');
    await page.route(`**/page-data${ARTICLE}/page-data.json`, (route) =>
      route.fulfill({ status: 200, body: '{"not":"page data"}', contentType: 'application/json' }),
    );
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([ARTICLE]);
    await closePage(page);
  });

  it('shows the 500 page when page data answers 500', async () => {
    const page = await open(site, '/');
    await page.route(`**/page-data${ARTICLE}/page-data.json`, (route) => route.fulfill({ status: 500, body: 'oops' }));
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'serverError');
    expect(new URL(page.url()).pathname).toBe(ARTICLE);
    expect(await page.locator('main h1').textContent()).toBe('Something went wrong');
    expect(loads).toEqual([]);
    // "Try again" asks the server again for the same page, in full; this time it answers.
    await page.unroute(`**/page-data${ARTICLE}/page-data.json`);
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(loads).toEqual([ARTICLE]);
    await closePage(page);
  });

  it('retries a 503 three times, then loads the page in full', async () => {
    const page = await open(site, '/');
    let calls = 0;
    await page.route(`**/page-data${ARTICLE}/page-data.json`, (route) => {
      if (!route.request().headers()['x-felt-prefetch']) calls++;
      return route.fulfill({ status: 503, body: 'busy' });
    });
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([ARTICLE]);
    expect(calls).toBe(4);
    await closePage(page);
  });

  it('loads the page in full when its component chunk fails to load', async () => {
    const page = await open(site, '/');
    await page.route('**/assets/chunks/article-*.js', (route) => route.abort());
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([ARTICLE]);
    await closePage(page);
  });

  it('names a component chunk it does not know, then loads the page in full', async () => {
    const page = await open(site, '/');
    const problems = watchConsole(page);
    await page.route(`**/page-data${ARTICLE}/page-data.json`, async (route) => {
      const data = await (await route.fetch()).json();
      await route.fulfill({ json: { ...data, componentChunkName: 'component---mystery' } });
    });
    const loads = documentLoads(page);
    await clickLinkTo(page, ARTICLE);
    await until(() => loads.length > 0, 'a full page load');
    expect(loads).toEqual([ARTICLE]);
    expect(problems.some((p) => p.includes('missing component chunk "component---mystery"'))).toBe(true);
    await closePage(page);
  });

  it('shows the slow-navigation notice after 1000 ms', async () => {
    const page = await open(site, '/');
    await page.route(`**/page-data${ARTICLE}/page-data.json`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1600));
      await route.continue();
    });
    const started = Date.now();
    await clickLinkTo(page, ARTICLE);
    await page.waitForSelector('.nav-slow:not([hidden])');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(await page.locator('.nav-slow').textContent()).toBe('Still loading…');
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(await page.locator('.nav-slow').isHidden()).toBe(true);
    await closePage(page);
  });

  it('reloads exactly once when the build hash changed', async () => {
    const page = await site.browser.context.newPage();
    await page.route('**/page-data/app-data.json', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"webpackCompilationHash":"a-newer-build"}' }),
    );
    const loads = documentLoads(page);
    await page.goto(site.url + '/');
    await until(() => loads.length === 2, 'the reload');
    await waitForRuntime(page);
    await page.waitForTimeout(500);
    expect(loads).toEqual(['/', '/']);
    // The guard holds for navigation too: the next link renders client-side.
    await page.click(`main a[href="${ARTICLE}"] >> nth=0`);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'article');
    expect(loads).toEqual(['/', '/']);
    await closePage(page);
  });
});

describe('prefetch', () => {
  /** Requests the prefetcher made, by address. */
  function prefetches(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (r) => r.headers()['x-felt-prefetch'] && seen.push(new URL(r.url()).pathname));
    return seen;
  }

  /** The pages those requests were for: a page is its page data and its HTML document, fetched together. */
  function pagesOf(requests: string[]): string[] {
    const data = requests.filter((p) => p.startsWith('/page-data/')).map((p) => p.replace(/^\/page-data|\/page-data\.json$/g, ''));
    const documents = requests.filter((p) => !p.startsWith('/page-data/'));
    expect(data.every((p) => p.startsWith('/'))).toBe(true);
    expect([...documents].sort()).toEqual(data.map((p) => (p === '/index' ? '/' : p)).sort());
    return documents;
  }

  it('fetches the pages of visible links, 4 at a time every 3 seconds', async () => {
    const page = await site.browser.context.newPage();
    // Eight links in view: the home page's lead card opens with its cover, so a window of 720 px shows fewer.
    await page.setViewportSize({ width: 1280, height: 1200 });
    await page.clock.install();
    // The page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 1000);
    const seen = prefetches(page);
    await page.goto(site.url + '/');
    await waitForRuntime(page);
    await page.waitForTimeout(200);
    await page.clock.runFor(2900);
    expect(seen).toEqual([]);
    await page.clock.runFor(200);
    await until(() => seen.length >= 8, 'a first batch');
    await page.waitForTimeout(100);
    expect(pagesOf(seen).length).toBe(4);
    await page.clock.runFor(3000);
    await until(() => seen.length >= 16, 'a second batch');
    await page.waitForTimeout(100);
    const pages = pagesOf(seen);
    expect(pages.length).toBe(8);
    expect(new Set(pages).size).toBe(8);
    // A link followed after its prefetch renders from what the prefetch brought: nothing more is asked for.
    const asked: string[] = [];
    page.on('request', (r) => r.resourceType() !== 'image' && asked.push(new URL(r.url()).pathname));
    const prefetched = pages.find((p) => p.startsWith('/articles/'))!;
    await page.evaluate((href) => document.querySelector<HTMLAnchorElement>(`main a[href="${href}"]`)!.click(), prefetched);
    await page.waitForFunction((path) => location.pathname === path && document.getElementById('main')?.dataset.kind === 'article', prefetched);
    expect(asked.filter((p) => p === prefetched || p.endsWith(`${prefetched}/page-data.json`))).toEqual([]);
    await closePage(page);
  });

  const REFUSALS = [
    ['data-saver on', () => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } })],
    ['a 2g connection', () => Object.defineProperty(navigator, 'connection', { value: { saveData: false, effectiveType: '2g' } })],
    [
      'a crawler',
      () => Object.defineProperty(navigator, 'userAgent', { get: () => 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
    ],
  ] as const;

  it.each(REFUSALS)('prefetches nothing with %s', async (_name, setUp) => {
    const page = await site.browser.context.newPage();
    await page.addInitScript(setUp);
    await page.clock.install();
    const seen = prefetches(page);
    await page.goto(site.url + '/');
    await waitForRuntime(page);
    await page.clock.runFor(10_000);
    await page.waitForTimeout(100);
    expect(seen).toEqual([]);
    await closePage(page);
  });
});

const KINDS = [
  ['home', '/'],
  ['category', '/betting-strategies'],
  ['subcategory', '/betting-strategies/bankroll-management'],
  ['article', ARTICLE],
  ['authors', '/authors'],
  ['info', '/info/about-us'],
  ['privacy', '/privacy-policy'],
  ['terms', '/terms'],
  ['sitemap', '/sitemap'],
  ['notFound', '/no-such-page'],
  ['serverError', '/500.html'],
] as const;

describe('hydration', () => {
  it.each(KINDS)('the %s page hydrates without a warning', async (_kind, pagePath) => {
    const page = await site.browser.context.newPage();
    const problems = watchConsole(page);
    await page.goto(site.url + pagePath);
    await waitForRuntime(page);
    await page.locator('.menu-button').click();
    await page.waitForSelector('.category-menu[open]');
    await page.waitForTimeout(100);
    // The 404 page's own document answers 404: Chromium logs that, nothing else.
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    await closePage(page);
  });

  it('an author page hydrates without a warning', async () => {
    const page = await open(site, '/authors');
    const href = await page.locator('main a[href^="/authors/"] >> nth=0').getAttribute('href');
    const problems = watchConsole(page);
    await page.goto(site.url + href);
    await waitForRuntime(page);
    await wakeIslands(page);
    expect(problems).toEqual([]);
    await closePage(page);
  });
});
