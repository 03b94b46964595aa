/**
 * Issue 6, item 7: felt serve sends a Content-Security-Policy that lets only
 * the site's own scripts run, X-Content-Type-Options, Referrer-Policy and
 * sensible caching on every answer; the built pages hold no inline
 * executable script (JSON-LD is data) and work under that policy in Chromium
 * without a single violation.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { BUNDLED_CONTENT, tempDir } from '../site/helpers.ts';
import { launchChromium } from '../support/chromium.ts';
import { listFiles } from './support/xssSite.ts';

let server: RunningServer;
let dist: string;
let files: string[];

beforeAll(async () => {
  dist = path.join(await tempDir('felt-headers-'), 'dist');
  await buildSite({ contentDir: BUNDLED_CONTENT, outDir: dist });
  files = await listFiles(dist);
  server = await startServer({ root: dist, port: 0 });
}, 180_000);

afterAll(() => server?.close());

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** One file of each kind the site serves, and answers that are not files. */
function samples(): string[] {
  const pick = (pattern: RegExp) => files.find((f) => pattern.test(f));
  return [
    '/',
    '/articles/bankroll-management-bet-sizing',
    `/${pick(/^assets\/.+\.js$/)}`,
    `/${pick(/^assets\/.+\.css$/)}`,
    `/${pick(/^page-data\/sq\/d\//)}`,
    '/page-data/index/page-data.json',
    '/page-data/app-data.json',
    '/sitemap.xml',
    '/robots.txt',
    '/feed.xml',
    '/favicon.ico',
    `/${pick(/^icons\/.+\.png$/)}`,
    '/sw.js',
    '/no-such-page',
    '/%2e%2e/x',
    '/__third-party-proxy?url=https%3A%2F%2Fevil.example%2F',
  ];
}

describe('felt serve headers', () => {
  it("send a CSP that lets only the site's own scripts run, on every answer", async () => {
    for (const url of samples()) {
      const response = await fetch(server.url + url, { redirect: 'manual' });
      const policy = response.headers.get('content-security-policy');
      expect(policy, url).toBeTruthy();
      const d = directives(policy!);
      expect(d.get('script-src') ?? d.get('default-src'), url).toEqual(["'self'"]);
      expect(d.get('default-src'), url).toEqual(["'self'"]);
      expect(d.get('object-src'), url).toEqual(["'none'"]);
      expect(d.get('base-uri'), url).toEqual(["'self'"]);
      expect(d.get('frame-ancestors'), url).toBeDefined();
      expect(policy, url).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic|\*|https?:|data:.*script/);
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), url).toMatch(/^(strict-origin-when-cross-origin|strict-origin|no-referrer|same-origin)$/);
      await response.arrayBuffer();
    }
  });

  it('cache hashed files for a year, revalidate pages and data, never cache a 404', async () => {
    const cache = async (url: string) => {
      const response = await fetch(server.url + url);
      await response.arrayBuffer();
      return {
        status: response.status,
        cacheControl: response.headers.get('cache-control'),
        etag: response.headers.get('etag'),
        type: response.headers.get('content-type'),
      };
    };
    const js = files.find((f) => /^assets\/.+\.js$/.test(f))!;
    expect((await cache(`/${js}`)).cacheControl).toBe('public, max-age=31536000, immutable');
    expect(js).toMatch(/[-.][A-Z0-9]{8,}\.js$/i);
    for (const url of ['/', '/articles/bankroll-management-bet-sizing', '/page-data/index/page-data.json', '/page-data/app-data.json']) {
      expect((await cache(url)).cacheControl, url).toMatch(/max-age=0, must-revalidate|no-cache/);
    }
    expect((await cache('/sw.js')).cacheControl).toMatch(/no-cache|max-age=0/);
    const missing = await cache('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.cacheControl).toMatch(/no-cache|no-store|max-age=0/);
    // Every answer has a precise type; nothing is left for the browser to sniff.
    for (const url of samples())
      expect((await cache(url)).type, url).toMatch(/^(text\/html|text\/javascript|text\/css|application\/json|application\/xml|text\/plain|image\/)/);
  });

  it('answer a revalidation with 304', async () => {
    const first = await fetch(server.url + '/');
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const second = await fetch(server.url + '/', { headers: { 'If-None-Match': etag } });
    expect(second.status).toBe(304);
  });
});

describe('built pages under the CSP', () => {
  it('hold no inline executable script and no inline event handler: only /assets/ modules and JSON-LD data', async () => {
    const failures: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.html'))) {
      const html = await readFile(path.join(dist, file), 'utf8');
      for (const [, tag = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
        const module = /\btype="module"/.test(tag) && /\bsrc="\/assets\/[^"]+\.js"/.test(tag) && body === '';
        const data = /\btype="application\/ld\+json"/.test(tag);
        if (!module && !data) failures.push(`${file}: <script${tag}>`);
      }
      for (const match of html.matchAll(/<[a-z][^>]*\s(on[a-z]+)\s*=/gi)) failures.push(`${file}: ${match[1]} attribute`);
      if (/href="\s*javascript:/i.test(html)) failures.push(`${file}: javascript: link`);
    }
    expect(failures).toEqual([]);
  });

  it('work in Chromium without a single CSP violation (scripts, styles, images, fetches)', async () => {
    const browser = await launchChromium();
    try {
      const violations: string[] = [];
      await browser.context.exposeBinding('__felt_csp', (_source, line: string) => void violations.push(line));
      await browser.context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          (window as unknown as { __felt_csp(line: string): void }).__felt_csp(
            `${location.pathname}: ${event.effectiveDirective} ${event.blockedURI} ${event.sample}`,
          );
        });
      });
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      for (const url of ['/', '/articles/bankroll-management-bet-sizing', '/betting-strategies', '/authors', '/no-such-page']) {
        await page.goto(server.url + url, { waitUntil: 'networkidle' });
      }
      // The search chunk and its index load on first use; they must pass the policy too.
      const box = page.locator('header input[type="search"]');
      await box.fill('poker');
      await page.waitForLoadState('networkidle');
      await page.locator('a[href^="/articles/"]').first().click();
      await page.waitForLoadState('networkidle');
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
