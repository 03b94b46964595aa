import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { FIXTURE_SITE, tempDir } from '../site/helpers.ts';

let server: RunningServer;
let root: string;

/** A raw request: fetch() would normalise "../" away before sending it. */
function rawGet(pathname: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: pathname, method }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  const dir = await tempDir();
  root = path.join(dir, 'dist');
  await buildSite({ contentDir: FIXTURE_SITE, outDir: root });
  // A secret next to the site that no request may read.
  await writeFile(path.join(dir, 'secret.txt'), 'TOP-SECRET');
  await mkdir(path.join(dir, 'dist-other'), { recursive: true });
  await writeFile(path.join(dir, 'dist-other', 'index.html'), 'OTHER-SITE');
  server = await startServer({ root, port: 0 });
});

afterAll(() => server?.close());

describe('felt serve', () => {
  it('serves pages, data and assets with their content types', async () => {
    const home = await rawGet('/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const article = await rawGet('/articles/first-steps');
    expect(article.status).toBe(200);
    expect(article.body).toContain('First Steps in Betting');
    expect((await rawGet('/articles/first-steps/')).status).toBe(200);
    const data = await rawGet('/page-data/articles/first-steps/page-data.json');
    expect(data.headers['content-type']).toBe('application/json; charset=utf-8');
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(home.body)![1]!;
    const asset = await rawGet(css);
    expect(asset.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await rawGet('/sitemap.xml')).headers['content-type']).toBe('application/xml; charset=utf-8');
    expect((await rawGet('/icons/felt-logo-small.png')).headers['content-type']).toBe('image/png');
  });

  it('answers a missing page with the 404 page and status 404, HEAD included', async () => {
    const missing = await rawGet('/articles/no-such-article');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('This page folded');
    const head = await rawGet('/articles/no-such-article', 'HEAD');
    expect(head.status).toBe(404);
    expect(head.body).toBe('');
    expect((await rawGet('/articles/first-steps', 'HEAD')).status).toBe(200);
  });

  it('sends the security headers', async () => {
    const home = await rawGet('/');
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    expect(home.headers['x-content-type-options']).toBe('nosniff');
    expect(home.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it.each([
    '/../secret.txt',
    '/../../../../etc/passwd',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/articles/..%2f..%2f..%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/..%5csecret.txt',
    '/%5c..%5csecret.txt',
    '/..\\secret.txt',
    '/secret.txt%00.html',
    '/../dist-other/index.html',
    '/%2e%2e/dist-other/',
    '/%c0%ae%c0%ae/secret.txt',
    '/%E2%80%A5/secret.txt',
  ])('refuses %s without reading outside the site', async (attack) => {
    const response = await rawGet(attack);
    expect([400, 404]).toContain(response.status);
    expect(response.body).not.toContain('TOP-SECRET');
    expect(response.body).not.toContain('OTHER-SITE');
    expect(response.body).not.toContain('root:');
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await rawGet('/', 'POST')).status).toBe(405);
    expect((await rawGet('/', 'DELETE')).status).toBe(405);
  });
});

describe('compression', () => {
  it('sends brotli or gzip as the browser asks, and the same bytes once decoded', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const url = new URL(server.url);
    const get = (encoding: string, path = '/articles/first-steps') =>
      new Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http.get({ host: url.hostname, port: url.port, path, headers: { 'accept-encoding': encoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);
    // The 404 page too: every mistyped URL and dead link gets it.
    const missingPlain = await get('identity', '/articles/no-such-article');
    const missing = await get('gzip, deflate, br', '/articles/no-such-article');
    expect([missing.status, missing.headers['content-encoding'], missing.headers.vary]).toEqual([404, 'br', 'Accept-Encoding']);
    expect(brotliDecompressSync(missing.body).equals(missingPlain.body)).toBe(true);
    expect(missing.body.length).toBeLessThan(missingPlain.body.length / 2);
  });
});

describe('caching', () => {
  it('keeps hashed files forever and revalidates what names them', async () => {
    const { cacheControlFor } = await import('../../site/serve/headers.ts');
    expect(cacheControlFor('search/00af6ee53c3b/b/3.json')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('search/manifest.json')).toBe('no-cache');
    expect(cacheControlFor('assets/app-ABC123.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('articles/x/index.html')).toBe('public, max-age=0, must-revalidate');
    expect(cacheControlFor('page-data/app-data.json')).toBe('public, max-age=0, must-revalidate');
    expect(cacheControlFor('sw.js')).toBe('no-cache');
  });
});
