/**
 * /__third-party-proxy in `felt serve` (issue #3, item 7): allowlisted hosts
 * only; private, loopback and link-local addresses refused, whether written
 * in the URL, answered by DNS, or reached through a redirect.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyRoute, PROXY_PATH, readProxyAllowlist, type ProxyOptions } from '../../site/serve/proxy.ts';
import { isBlockedAddress } from '../../site/serve/proxyAddress.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { closedLoopbackPort, listenOnLoopback } from '../support/loopback.ts';

let root: string;
let upstreamPort: number;
let closeUpstream: () => Promise<void>;
const servers: RunningServer[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'felt-proxy-'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(path.join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  // The "third party": a script, redirects, a big answer and a slow one.
  const upstream = http.createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    if (url.pathname === '/script.js') return response.writeHead(200, { 'Content-Type': 'text/javascript', 'Set-Cookie': 'a=b' }).end('console.log(1)');
    if (url.pathname === '/redirect') return response.writeHead(302, { Location: url.searchParams.get('to')! }).end();
    if (url.pathname === '/big') return response.writeHead(200, { 'Content-Type': 'application/json' }).end(Buffer.alloc(4096));
    if (url.pathname === '/page.html') return response.writeHead(200, { 'Content-Type': 'text/html' }).end('<script>alert(1)</script>');
    if (url.pathname === '/image.svg') return response.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg onload="alert(1)"/>');
    if (url.pathname === '/untyped') return response.writeHead(200).end('x');
    // Error pages and a worker script, as a compromised (or careless) allowlisted host may answer.
    if (url.pathname === '/missing.html') return response.writeHead(404, { 'Content-Type': 'text/html' }).end('<script>alert(404)</script>');
    if (url.pathname === '/error.svg')
      return response.writeHead(500, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(500)"/>');
    if (url.pathname === '/worker.js')
      return response.writeHead(200, { 'Content-Type': 'text/javascript', 'Service-Worker-Allowed': '/' }).end('self.onfetch = () => alert(1)');
    if (url.pathname === '/gone.js')
      return response.writeHead(404, { 'Content-Type': 'text/javascript', 'Cache-Control': 'public, max-age=31536000' }).end('// gone');
    if (url.pathname === '/cached.js')
      return response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': url.searchParams.get('cc')! }).end('// cached');
    if (url.pathname === '/slow') return setTimeout(() => response.writeHead(200).end('late'), 2000);
    response.writeHead(404).end();
  });
  ({ port: upstreamPort, close: closeUpstream } = await listenOnLoopback(upstream));
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await closeUpstream();
  await rm(root, { recursive: true, force: true });
});

/** A fake DNS: good.test is the upstream on loopback, the others resolve to private addresses. */
const FAKE_DNS: Record<string, string> = {
  'good.test': '127.0.0.1',
  'evil.test': '192.168.1.10',
  'metadata.test': '169.254.169.254',
  'sneaky.test': '::ffff:10.0.0.1',
};

/** The test opens exactly one loopback address, the upstream's, so redirects can be followed at all. */
async function serveWith(options: Partial<ProxyOptions>): Promise<string> {
  const route = createProxyRoute({
    allow: ['good.test', 'evil.test', 'metadata.test', 'sneaky.test', 'localhost', '10.0.0.1', '127.0.0.1'],
    resolve: (host, callback) => {
      const address = FAKE_DNS[host];
      if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
      callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
    },
    isBlocked: (address) => address !== '127.0.0.1' && isBlockedAddress(address),
    extraPorts: [upstreamPort],
    ...options,
  });
  const server = await startServer({ root, port: 0, extraRoutes: route });
  servers.push(server);
  return server.url;
}

const proxied = (base: string, target: string) => fetch(`${base}${PROXY_PATH}?url=${encodeURIComponent(target)}`);

/** The status of a GET whose request target goes out byte for byte (fetch would refuse or rewrite it). */
function rawStatus(base: string, target: string): Promise<number> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString('latin1'))?.[1] ?? 0)));
  });
}

describe('third-party proxy', () => {
  it('fetches from an allowlisted host, without its cookies', async () => {
    const base = await serveWith({});
    const response = await proxied(base, `http://good.test:${upstreamPort}/script.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toBe('console.log(1)');
  });

  it('refuses a host off the allowlist with 403', async () => {
    const base = await serveWith({ allow: ['good.test'] });
    expect((await proxied(base, 'https://www.example.org/tag.js')).status).toBe(403);
    expect((await proxied(base, `http://GOOD.test.evil.test:${upstreamPort}/script.js`)).status).toBe(403);
  });

  it('refuses private, loopback and link-local addresses, even allowlisted', async () => {
    const base = await serveWith({ isBlocked: isBlockedAddress });
    for (const target of ['http://127.0.0.1/', 'http://10.0.0.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/latest/meta-data/']) {
      expect((await proxied(base, target)).status, target).toBe(403);
    }
  });

  it('refuses an allowlisted name whose DNS answer is private, checked at connect time', async () => {
    const base = await serveWith({});
    for (const host of ['evil.test', 'metadata.test', 'sneaky.test']) {
      expect((await proxied(base, `http://${host}:${upstreamPort}/script.js`)).status, host).toBe(403);
    }
    // The real resolver: localhost is loopback.
    const real = await serveWith({ resolve: undefined, isBlocked: isBlockedAddress });
    expect((await proxied(real, `http://localhost:${upstreamPort}/script.js`)).status).toBe(403);
  });

  it('follows redirects by hand and refuses one to a private address or another host', async () => {
    const base = await serveWith({});
    const via = (to: string) => proxied(base, `http://good.test:${upstreamPort}/redirect?to=${encodeURIComponent(to)}`);
    expect((await via(`http://good.test:${upstreamPort}/script.js`)).status).toBe(200);
    expect((await via('http://169.254.169.254/latest/meta-data/')).status).toBe(403);
    expect((await via(`http://evil.test:${upstreamPort}/script.js`)).status).toBe(403);
    expect((await via('https://not-allowed.example/x.js')).status).toBe(403);
    expect((await via('file:///etc/passwd')).status).toBe(403);
  });

  it('caps the size and the time of an answer', async () => {
    const base = await serveWith({ maxBytes: 1024, timeoutMs: 300 });
    expect((await proxied(base, `http://good.test:${upstreamPort}/big`)).status).toBe(502);
    expect((await proxied(base, `http://good.test:${upstreamPort}/slow`)).status).toBe(504);
  });

  it("passes scripts, not pages, SVG or untyped answers that would run on the site's origin", async () => {
    const base = await serveWith({});
    expect((await proxied(base, `http://good.test:${upstreamPort}/script.js`)).status).toBe(200);
    for (const file of ['page.html', 'image.svg', 'untyped']) {
      const answer = await proxied(base, `http://good.test:${upstreamPort}/${file}`);
      expect(answer.status, file).toBe(502);
      expect(await answer.text()).not.toContain('alert');
    }
  });

  it('refuses an error page, an SVG error or a worker script, whatever the status (issue 16)', async () => {
    const base = await serveWith({});
    for (const file of ['missing.html', 'error.svg', 'worker.js']) {
      const answer = await proxied(base, `http://good.test:${upstreamPort}/${file}`);
      const body = await answer.text();
      expect([file, answer.status, answer.headers.get('content-type')]).toEqual([file, 502, 'text/plain; charset=utf-8']);
      expect(body).not.toContain('alert');
    }
    // A script's own 404 passes as the 404 it is, kept by nobody.
    const gone = await proxied(base, `http://good.test:${upstreamPort}/gone.js`);
    expect([gone.status, gone.headers.get('cache-control')]).toEqual([404, 'no-store']);
  });

  it('decides the caching itself: at most a day, nothing for what the third party keeps private', async () => {
    const base = await serveWith({});
    const cacheControl = async (cc: string) =>
      (await proxied(base, `http://good.test:${upstreamPort}/cached.js?cc=${encodeURIComponent(cc)}`)).headers.get('cache-control');
    expect(await cacheControl('public, max-age=31536000, immutable')).toBe('public, max-age=86400');
    expect(await cacheControl('max-age=600')).toBe('public, max-age=600');
    expect(await cacheControl('private, max-age=600')).toBe('no-store');
    expect(await cacheControl('no-cache')).toBe('no-cache');
    expect(await cacheControl('')).toBe('public, max-age=300');
  });

  it('refuses a service worker script through the proxy; /sw.js alone may be one', async () => {
    const base = await serveWith({});
    const asWorker = (url: string) => fetch(url, { headers: { 'Service-Worker': 'script' } });
    const proxiedWorker = await asWorker(`${base}${PROXY_PATH}?url=${encodeURIComponent(`http://good.test:${upstreamPort}/script.js`)}`);
    expect(proxiedWorker.status).toBe(403);
    expect((await asWorker(`${base}/index.html`)).status).toBe(403);
    expect((await asWorker(`${base}/sw.js`)).status).toBe(200);
    expect((await fetch(`${base}${PROXY_PATH}?url=${encodeURIComponent(`http://good.test:${upstreamPort}/script.js`)}`)).status).toBe(200);
  });

  it('allows only port 80 for http and 443 for https, and names no address or port state in its errors', async () => {
    const standard = await serveWith({ extraPorts: [] });
    const off = await proxied(standard, `http://good.test:${upstreamPort}/script.js`);
    expect([off.status, await off.text()]).toEqual([403, 'Forbidden: only port 80 for http and 443 for https\n']);
    // A closed port and a refused connection: the same words as any failure.
    const closedPort = await closedLoopbackPort();
    const base = await serveWith({ extraPorts: [closedPort] });
    const refused = await proxied(base, `http://good.test:${closedPort}/script.js`);
    expect([refused.status, await refused.text()]).toEqual([502, 'Bad Gateway: the third party could not be reached\n']);
  });

  it('answers 400 to a missing or relative url, and leaves other paths to the files', async () => {
    const base = await serveWith({});
    expect((await fetch(`${base}${PROXY_PATH}`)).status).toBe(400);
    expect((await fetch(`${base}${PROXY_PATH}?url=/script.js`)).status).toBe(400);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('answers 400, not 500, to a request target no URL parser takes (GET http://[ HTTP/1.1)', async () => {
    const base = await serveWith({});
    for (const target of ['http://[', 'http://x:99999/', 'https://[::1']) expect(await rawStatus(base, target), target).toBe(400);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('reads the allowlist from site settings', async () => {
    expect(await readProxyAllowlist(path.resolve('content'))).toContain('www.googletagmanager.com');
    expect(await readProxyAllowlist(root)).toEqual([]);
  });
});

describe('blocked addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:192.168.1.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    'not-an-ip',
  ])('%s is refused', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is allowed', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});
