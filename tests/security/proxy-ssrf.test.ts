/**
 * Issue 6, item 3: SSRF attempts against felt serve's /__third-party-proxy
 * are all refused, and no request ever reaches the internal service they aim
 * at: private ranges, loopback, 169.254.169.254 and other metadata
 * addresses, IPv6 forms (loopback, mapped, compatible, NAT64, 6to4, ULA,
 * link-local), decimal, octal, hexadecimal and shortened IPv4, host names
 * resolving to private addresses (alone or among public ones, or only on the
 * second lookup), redirects to any of them, credentials and parser
 * confusion in the URL, and schemes other than http(s).
 *
 * The "internal service" is a victim server on 127.0.0.1 (and ::1 where the
 * machine has IPv6) that counts every request. The "public internet" is a
 * server on 127.0.0.2, the only address the proxy is allowed to reach here;
 * the real address policy (isBlockedAddress) decides everything else.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyRoute, PROXY_PATH } from '../../site/serve/proxy.ts';
import { isBlockedAddress } from '../../site/serve/proxyAddress.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';

const PUBLIC = '127.0.0.2';
const SECRET = 'INTERNAL-METADATA-SECRET';
let victimHits = 0;
const victims: http.Server[] = [];
let victimPort = 0;
let victim6Port = 0;
let publicServer: http.Server;
let publicPort = 0;
let proxied: RunningServer;
let plain: RunningServer;
let rebindLookups = 0;

function listen(server: http.Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** The DNS the attacker controls. */
function fakeDns(name: string, callback: (error: NodeJS.ErrnoException | null, addresses: { address: string; family: number }[]) => void): void {
  // As a real resolver: "localhost." is "localhost".
  const host = name.toLowerCase().replace(/\.$/, '');
  const answers: Record<string, string[]> = {
    'cdn.test': [PUBLIC],
    localhost: ['127.0.0.1', '::1'],
    'internal.test': ['10.0.0.5'],
    'loopback.test': ['127.0.0.1'],
    'metadata.google.internal': ['169.254.169.254'],
    'v6-loopback.test': ['::1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'compat.test': ['::127.0.0.1'],
    'nat64.test': ['64:ff9b::7f00:1'],
    'sixtofour.test': ['2002:7f00:1::1'],
    'ula.test': ['fd00:ec2::254'],
    'linklocal.test': ['fe80::1'],
    'zero.test': ['0.0.0.0'],
    'mixed.test': [PUBLIC, '127.0.0.1'],
    'cgnat.test': ['100.100.100.200'],
    'broadcast.test': ['255.255.255.255'],
  };
  if (host === 'rebind.test') {
    // Public for the first look-up, the victim for every one after.
    const address = rebindLookups++ === 0 ? PUBLIC : '127.0.0.1';
    return callback(null, [{ address, family: 4 }]);
  }
  const found = answers[host];
  if (!found) return callback(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
  callback(
    null,
    found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
}

beforeAll(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'felt-ssrf-'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>site</title>');
  const victimHandler = (_request: http.IncomingMessage, response: http.ServerResponse) => {
    victimHits++;
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end(SECRET);
  };
  const v4 = http.createServer(victimHandler);
  victimPort = await listen(v4, '127.0.0.1');
  victims.push(v4);
  const v6 = http.createServer(victimHandler);
  victim6Port = await listen(v6, '::1').catch(() => 0);
  victims.push(v6);

  // The allowed "public" host: serves a script, and redirects wherever it is told to.
  publicServer = http.createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    if (url.pathname === '/redirect') return response.writeHead(Number(url.searchParams.get('status') ?? 302), { Location: url.searchParams.get('to')! }).end();
    if (url.pathname === '/chain') {
      const left = Number(url.searchParams.get('n'));
      const to = left > 0 ? `/chain?n=${left - 1}&to=${encodeURIComponent(url.searchParams.get('to')!)}` : url.searchParams.get('to')!;
      return response.writeHead(307, { Location: to }).end();
    }
    response.writeHead(200, { 'Content-Type': 'text/javascript' }).end('/* third-party script */');
  });
  publicPort = await listen(publicServer, PUBLIC);

  // Every host the attacks name is on the allowlist: a careless allowlist must not open the door.
  const allow = [
    'cdn.test',
    'internal.test',
    'loopback.test',
    'metadata.google.internal',
    'v6-loopback.test',
    'mapped.test',
    'compat.test',
    'nat64.test',
    'sixtofour.test',
    'ula.test',
    'linklocal.test',
    'zero.test',
    'mixed.test',
    'cgnat.test',
    'broadcast.test',
    'rebind.test',
    'localhost',
    '127.0.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    '10.0.0.1',
    '192.168.0.1',
    '[::1]',
  ];
  // The test servers' ports are open too, so the address policy alone refuses the attacks on them
  // (the standard-ports rule would stop them first; `plain` below keeps it).
  const ports = [publicPort, victimPort, victim6Port].filter((port) => port !== 0);
  const route = createProxyRoute({
    allow,
    resolve: fakeDns,
    isBlocked: (address) => address !== PUBLIC && isBlockedAddress(address),
    timeoutMs: 3000,
    extraPorts: ports,
  });
  proxied = await startServer({ root, port: 0, extraRoutes: route });
  // The same proxy with no test hooks at all: the system resolver and the real address policy.
  plain = await startServer({ root, port: 0, extraRoutes: createProxyRoute({ allow: ['localhost', '127.0.0.1', 'ip6-localhost', 'ip6-loopback'] }) });
});

afterAll(async () => {
  await proxied?.close();
  await plain?.close();
  for (const server of [...victims, publicServer]) {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function viaProxy(server: RunningServer, target: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.url}${PROXY_PATH}?url=${encodeURIComponent(target)}`);
  return { status: response.status, body: await response.text() };
}

const v = (template: string) =>
  template
    .replace(/VPORT6/g, String(victim6Port))
    .replace(/VPORT/g, String(victimPort))
    .replace(/PPORT/g, String(publicPort));

/** Addresses written straight into the URL. */
const LITERALS = [
  'http://127.0.0.1:VPORT/',
  'http://127.0.0.1:VPORT/latest/meta-data/',
  'http://localhost:VPORT/',
  'http://LOCALHOST:VPORT/',
  'http://localhost.:VPORT/',
  'http://\uFF4C\uFF4F\uFF43\uFF41\uFF4C\uFF48\uFF4F\uFF53\uFF54:VPORT/',
  'http://2130706433:VPORT/',
  'http://0x7f000001:VPORT/',
  'http://0x7f.0x0.0x0.0x1:VPORT/',
  'http://0177.0.0.1:VPORT/',
  'http://0177.0000.0000.0001:VPORT/',
  'http://017700000001:VPORT/',
  'http://127.1:VPORT/',
  'http://127.0.1:VPORT/',
  'http://127.000.000.001:VPORT/',
  'http://0:VPORT/',
  'http://0.0.0.0:VPORT/',
  'http://[::1]:VPORT6/',
  'http://[0:0:0:0:0:0:0:1]:VPORT6/',
  'http://[::ffff:127.0.0.1]:VPORT/',
  'http://[::ffff:7f00:1]:VPORT/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]:VPORT/',
  'http://[::127.0.0.1]:VPORT/',
  'http://[64:ff9b::127.0.0.1]:VPORT/',
  'http://[2002:7f00:1::]:VPORT/',
  'http://[::]:VPORT/',
  'http://[fe80::1%25lo]:VPORT/',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://2852039166/latest/meta-data/',
  'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/',
  'http://[::ffff:169.254.169.254]/',
  'http://[fd00:ec2::254]/',
  'http://100.100.100.200/latest/meta-data/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.0.1/',
  'http://198.18.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'https://127.0.0.1:VPORT/',
];

/** Allowlisted names the attacker's DNS points inward. */
const NAMES = [
  'internal.test',
  'loopback.test:VPORT',
  'metadata.google.internal',
  'v6-loopback.test:VPORT6',
  'mapped.test:VPORT',
  'compat.test:VPORT',
  'nat64.test:VPORT',
  'sixtofour.test:VPORT',
  'ula.test',
  'linklocal.test',
  'zero.test:VPORT',
  'mixed.test:VPORT',
  'cgnat.test',
  'broadcast.test',
].map((host) => `http://${host}/computeMetadata/v1/`);

/** Parser confusion, credentials and other schemes. */
const CONFUSION = [
  'http://cdn.test@127.0.0.1:VPORT/',
  'http://cdn.test:PPORT@127.0.0.1:VPORT/',
  'http://user:pass@cdn.test:PPORT/',
  'http://127.0.0.1:VPORT#@cdn.test:PPORT/',
  'http://127.0.0.1:VPORT?@cdn.test:PPORT/',
  'http://127.0.0.1%2f@cdn.test:PPORT/',
  'file:///etc/passwd',
  'file://localhost/etc/passwd',
  'gopher://127.0.0.1:VPORT/_GET%20/%20HTTP/1.0',
  'ftp://127.0.0.1:VPORT/',
  'dict://127.0.0.1:VPORT/',
  'ws://127.0.0.1:VPORT/',
  'data:text/plain,INTERNAL',
  'javascript:alert(1)',
  '//127.0.0.1:VPORT/',
  '/etc/passwd',
  '',
];

/** Redirects from the allowed host to each inward target. */
const REDIRECT_TARGETS = [
  'http://127.0.0.1:VPORT/',
  'http://localhost:VPORT/',
  'http://2130706433:VPORT/',
  'http://0x7f000001:VPORT/',
  'http://[::1]:VPORT6/',
  'http://[::ffff:127.0.0.1]:VPORT/',
  'http://0.0.0.0:VPORT/',
  'http://169.254.169.254/latest/meta-data/',
  'http://internal.test/',
  'http://loopback.test:VPORT/',
  'http://mixed.test:VPORT/',
  '//127.0.0.1:VPORT/',
  'file:///etc/passwd',
  'gopher://127.0.0.1:VPORT/_x',
  'http://user:pw@cdn.test:PPORT/',
];

describe('the third-party proxy refuses SSRF', () => {
  it('still serves the allowed public host (so the refusals below are the policy, not a broken proxy)', async () => {
    const ok = await viaProxy(proxied, v('http://cdn.test:PPORT/script.js'));
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('third-party script');
  });

  it.each(LITERALS)('%s', async (template) => {
    if (template.includes('VPORT6') && !victim6Port) return;
    const before = victimHits;
    const { status, body } = await viaProxy(proxied, v(template));
    expect([400, 403]).toContain(status);
    expect(body).not.toContain(SECRET);
    expect(victimHits).toBe(before);
  });

  it.each(NAMES)('%s (allowlisted name, private DNS answer)', async (template) => {
    if (template.includes('VPORT6') && !victim6Port) return;
    const before = victimHits;
    const { status, body } = await viaProxy(proxied, v(template));
    expect(status).toBe(403);
    expect(body).toMatch(/private address/);
    expect(body).not.toContain(SECRET);
    expect(victimHits).toBe(before);
  });

  it.each(CONFUSION)('%s (parser confusion, credentials, scheme)', async (template) => {
    const before = victimHits;
    const { status, body } = await viaProxy(proxied, v(template));
    expect([400, 403]).toContain(status);
    expect(body).not.toContain(SECRET);
    expect(body).not.toContain('root:');
    expect(victimHits).toBe(before);
  });

  describe.each([301, 302, 303, 307, 308])('redirect %i from the allowed host', (code) => {
    it.each(REDIRECT_TARGETS)('to %s', async (template) => {
      if (template.includes('VPORT6') && !victim6Port) return;
      const before = victimHits;
      const to = encodeURIComponent(v(template));
      const { status, body } = await viaProxy(proxied, v(`http://cdn.test:PPORT/redirect?status=${code}&to=${to}`));
      expect([400, 403, 502]).toContain(status);
      expect(body).not.toContain(SECRET);
      expect(victimHits).toBe(before);
    });
  });

  it('refuses a chain of redirects that ends inside', async () => {
    const before = victimHits;
    const { status, body } = await viaProxy(proxied, v(`http://cdn.test:PPORT/chain?n=3&to=${encodeURIComponent(v('http://127.0.0.1:VPORT/'))}`));
    expect([403, 502]).toContain(status);
    expect(body).not.toContain(SECRET);
    expect(victimHits).toBe(before);
  });

  it('refuses DNS rebinding: a name that is public on the first look-up and inward on the next', async () => {
    rebindLookups = 0;
    const before = victimHits;
    // First connection: public, answered, and it redirects back to the same name, looked up again.
    const first = await viaProxy(proxied, v(`http://rebind.test:PPORT/redirect?to=${encodeURIComponent(v('http://rebind.test:VPORT/'))}`));
    expect([403, 502]).toContain(first.status);
    expect(first.body).not.toContain(SECRET);
    expect(rebindLookups).toBeGreaterThanOrEqual(2);
    expect(victimHits).toBe(before);
  });

  it('with no test hooks at all (system DNS, real policy): loopback by name and by number is refused', async () => {
    const before = victimHits;
    for (const template of [
      'http://localhost:VPORT/',
      'http://127.0.0.1:VPORT/',
      'http://2130706433:VPORT/',
      'http://[::1]:VPORT6/',
      'http://ip6-localhost:VPORT6/',
    ]) {
      if (template.includes('VPORT6') && !victim6Port) continue;
      const { status, body } = await viaProxy(plain, v(template));
      expect([403, 502], template).toContain(status);
      expect(body).not.toContain(SECRET);
    }
    expect(victimHits).toBe(before);
  });

  it('never reached the internal service in this whole file', () => {
    expect(victimHits).toBe(0);
  });
});
