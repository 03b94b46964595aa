import { mkdir, readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { MAX_PIPELINED } from '../../site/serve/connectionGuard.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { fixtureCopy } from '../site/helpers.ts';
import { httpRequest } from '../support/httpRequest.ts';

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

/** A GET as curl would send it, with the given request headers; the body as it came over the wire. */
const get = (pathname: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET') => httpRequest(server.url, pathname, headers, method);

beforeAll(async () => {
  // The operator's own files in content/static/: a PDF, fonts, a web app manifest.
  const content = await fixtureCopy();
  await mkdir(path.join(content, 'static', 'fonts'), { recursive: true });
  await writeFile(path.join(content, 'static', 'rules.pdf'), '%PDF-1.4\n%%EOF\n');
  await writeFile(path.join(content, 'static', 'fonts', 'brand.woff2'), 'wOF2');
  await writeFile(path.join(content, 'static', 'fonts', 'brand.woff'), 'wOFF');
  await writeFile(path.join(content, 'static', 'site.webmanifest'), '{"name":"felt"}');
  const dir = path.dirname(content);
  root = path.join(dir, 'dist');
  await buildSite({ contentDir: content, outDir: root });
  // A download too large to go in one write: the server streams it.
  await writeFile(path.join(root, 'big.bin'), Buffer.alloc(32 * 1024 * 1024, 1));
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

  it("serves the operator's own files with their types, not application/octet-stream", async () => {
    expect((await get('/rules.pdf')).headers['content-type']).toBe('application/pdf');
    expect((await get('/fonts/brand.woff2')).headers['content-type']).toBe('font/woff2');
    expect((await get('/fonts/brand.woff')).headers['content-type']).toBe('font/woff');
    expect((await get('/site.webmanifest')).headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect((await get('/robots.txt')).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await get('/big.bin', {}, 'HEAD')).headers['content-type']).toBe('application/octet-stream');
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
    const url = new URL(server.url);
    const get = (encoding: string, path = '/articles/first-steps') =>
      new Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get({ host: url.hostname, port: url.port, path, headers: { 'accept-encoding': encoding } }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
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

describe('content negotiation', () => {
  const PAGE = '/articles/first-steps';
  const encodingFor = async (acceptEncoding: string, pathname = PAGE) => {
    const response = await get(pathname, { 'accept-encoding': acceptEncoding });
    return [response.status, response.headers['content-encoding'] ?? 'identity'];
  };

  it.each([
    ['br;q=0', 'identity'],
    ['gzip, deflate, br;q=0', 'gzip'],
    ['br;q=0.0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br, gzip;q=0', 'br'],
    ['BR', 'br'],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
    ['', 'identity'],
  ])('Accept-Encoding: %j gets %s', async (acceptEncoding, expected) => {
    expect(await encodingFor(acceptEncoding)).toEqual([200, expected]);
  });

  it('answers 406 when the client refuses every coding, and compresses even a small or binary file when it refuses only identity', async () => {
    const refused = await get(PAGE, { 'accept-encoding': 'identity;q=0' });
    expect([refused.status, refused.headers.vary, refused.headers.etag]).toEqual([406, 'Accept-Encoding', undefined]);
    // Not a 200 without the condition, so not a 304 with it.
    expect((await get(PAGE, { 'accept-encoding': 'identity;q=0', 'if-none-match': '*' })).status).toBe(406);
    expect((await get(PAGE, { 'accept-encoding': '*;q=0' })).status).toBe(406);
    expect((await get(PAGE, { 'accept-encoding': 'br;q=0, gzip;q=0, identity;q=0' })).status).toBe(406);
    // A 20-byte PDF is not worth compressing, unless the client takes nothing else.
    expect(await encodingFor('gzip', '/rules.pdf')).toEqual([200, 'identity']);
    const pdf = await get('/rules.pdf', { 'accept-encoding': 'gzip, identity;q=0' });
    expect([pdf.status, pdf.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gunzipSync(pdf.body).toString()).toBe('%PDF-1.4\n%%EOF\n');
    // A missing page stays a 404: refusing every coding gets it as it is.
    expect(await encodingFor('identity;q=0', '/articles/no-such-article')).toEqual([404, 'identity']);
  });
});

describe('conditional requests', () => {
  const PAGE = '/articles/first-steps';

  it('answers 304 to a matching tag in any form If-None-Match allows, and 200 to anything else', async () => {
    const first = await get(PAGE);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const strong = etag.slice(2);
    const forms = [etag, strong, `"stale-1", ${etag}`, `"stale-1",${strong}`, '*'];
    const answers = [];
    for (const ifNoneMatch of forms) answers.push([ifNoneMatch, (await get(PAGE, { 'if-none-match': ifNoneMatch })).status]);
    expect(answers).toEqual(forms.map((ifNoneMatch) => [ifNoneMatch, 304]));
    expect((await get(PAGE, { 'if-none-match': '"stale-1", W/"stale-2"' })).status).toBe(200);
    // A 304 carries no body, and the validators and Vary the 200 would have.
    const notModified = await get(PAGE, { 'if-none-match': etag });
    expect([notModified.body.length, notModified.headers.etag, notModified.headers['last-modified'], notModified.headers.vary]).toEqual([
      0,
      etag,
      first.headers['last-modified'],
      'Accept-Encoding',
    ]);
    expect((await get(PAGE, { 'if-none-match': '*' }, 'HEAD')).status).toBe(304);
    // What Node's fetch sends with a conditional request: the origin still answers 304.
    expect((await get(PAGE, { 'if-none-match': etag, 'cache-control': 'no-cache', pragma: 'no-cache' })).status).toBe(304);
  });

  it('answers If-Modified-Since by the Last-Modified date, If-None-Match first', async () => {
    const first = await get(PAGE);
    const lastModified = first.headers['last-modified']!;
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0);
    expect((await get(PAGE, { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get(PAGE, { 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() })).status).toBe(304);
    expect((await get(PAGE, { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).status).toBe(200);
    expect((await get(PAGE, { 'if-modified-since': lastModified, 'if-none-match': '"stale-1"' })).status).toBe(200);
  });
});

describe('abandoned downloads', () => {
  const openDescriptors = async () => (await readdir('/proc/self/fd')).length;

  it('closes the file when the visitor hangs up mid-download', async () => {
    const before = await openDescriptors();
    const url = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      // agent: false, so no kept-alive socket is left behind to count.
      const request = http.get({ host: url.hostname, port: url.port, path: '/big.bin', agent: false }, (response) => {
        expect(response.headers['content-length']).toBe(String(32 * 1024 * 1024));
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    });
    let now = await openDescriptors();
    for (let waited = 0; now > before && waited < 2000; waited += 50) {
      await sleep(50);
      now = await openDescriptors();
    }
    expect(now).toBeLessThanOrEqual(before);
  });

  it('releases every descriptor and the memory when pipelining clients hang up without reading (issue 16)', async () => {
    // The collector on demand, so the resident memory is what the server still holds, not garbage not yet collected.
    v8.setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const resident = () => {
      collect();
      return process.memoryUsage().rss;
    };
    const settle = async (goal: number, measure: () => Promise<number> | number) => {
      let now = await measure();
      for (let waited = 0; now > goal && waited < 3000; waited += 100) {
        await sleep(100);
        now = await measure();
      }
      return now;
    };
    const before = { descriptors: await openDescriptors(), memory: resident() };
    // 20 connections, 50 pipelined downloads each, never read: the first answer
    // fills the connection, the other 49 wait their turn, then the client hangs up.
    const clients = pipeliningClients(server.url, 20, 50);
    await sleep(1500);
    const during = { descriptors: await openDescriptors(), memory: process.memoryUsage().rss };
    for (const socket of clients) socket.destroy();
    const after = {
      descriptors: await settle(before.descriptors * 1.1, openDescriptors),
      memory: await settle(before.memory * 1.1, resident),
    };
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    console.log(
      `pipelined abandon: descriptors ${before.descriptors} → ${during.descriptors} → ${after.descriptors}; RSS ${mb(before.memory)} → ${mb(during.memory)} → ${mb(after.memory)} MB`,
    );
    expect(after.descriptors).toBeLessThanOrEqual(before.descriptors * 1.1);
    expect(after.memory).toBeLessThanOrEqual(before.memory * 1.1);
  });
});

describe('pipelining without reading', () => {
  it(`closes a connection with more than ${MAX_PIPELINED} requests waiting, and a visitor is answered meanwhile`, async () => {
    // Before, each of 6,000 pipelined requests a connection sent kept an answer object until its turn, and 250 such
    // connections took the server to its heap limit (it died). Now the connection goes once 33 wait.
    const [flood] = pipeliningClients(server.url, 1, 5000, '/index.html');
    await sleep(500);
    // Read only now: what the server sent before it closed the connection, then its end.
    let answered = '';
    flood!.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')));
    const closed = new Promise((resolve) => flood!.once('close', () => resolve(true)));
    flood!.resume();
    expect(await Promise.race([closed, sleep(5000).then(() => false)]), 'the server kept the connection of 5,000 waiting requests').toBe(true);
    expect((answered.match(/^HTTP\/1\.1 200/gm) ?? []).length).toBeLessThanOrEqual(MAX_PIPELINED);
    // A client that reads its pipelined answers, as few as a client may send, gets them all.
    const [polite] = pipeliningClients(server.url, 1, MAX_PIPELINED, '/robots.txt');
    polite!.resume();
    let text = '';
    polite!.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    for (let waited = 0; (text.match(/^HTTP\/1\.1 200/gm) ?? []).length < MAX_PIPELINED && waited < 5000; waited += 50) await sleep(50);
    expect((text.match(/^HTTP\/1\.1 200/gm) ?? []).length).toBe(MAX_PIPELINED);
    polite!.destroy();
    expect((await get('/robots.txt')).status).toBe(200);
  });
});

describe('leases on the release', () => {
  it('lets go of the release once pipelining clients that hang up have gone, so a build may rework it', async () => {
    // felt serve holds a lease (a file in dist.releases) on the release a request reads, until its answer ends. When
    // a client hangs up with pipelined requests still queued, Node drops their answers without closing them: before,
    // their lease stayed for as long as the server ran (builds then neither reworked nor removed that release).
    const releases = `${root}.releases`;
    const leases = async () => (await readdir(releases)).filter((name) => name.startsWith(`.lease-${process.pid}-`));
    const clients = pipeliningClients(server.url, 10, 20);
    await sleep(500);
    expect(await leases()).not.toEqual([]);
    for (const socket of clients) socket.destroy();
    let held = await leases();
    for (let waited = 0; held.length > 0 && waited < 3000; waited += 100) {
      await sleep(100);
      held = await leases();
    }
    expect(held).toEqual([]);
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

/** `count` connections to `origin`, each sending `requests` pipelined downloads of `file` and reading none of them. */
function pipeliningClients(origin: string, count: number, requests: number, file = '/big.bin'): net.Socket[] {
  const url = new URL(origin);
  return Array.from({ length: count }, () => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => {});
    socket.pause();
    socket.write(`GET ${file} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(requests));
    return socket;
  });
}
