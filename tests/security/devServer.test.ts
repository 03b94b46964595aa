/**
 * `felt dev` writes content (the in-place title editor posts to
 * /__felt/title). Another web site must not be able to make a visitor's
 * browser post there: not cross-origin, and not through DNS rebinding, where
 * the attacker's own host name resolves to 127.0.0.1 so that Origin and Host
 * agree with each other. Only slugs name files.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDev, type DevServer } from '../../site/dev/devServer.ts';
import { until } from '../browser/helpers.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';

let dev: DevServer;
let contentDir: string;
let article: string;
let original: string;

beforeAll(async () => {
  contentDir = await fixtureCopy();
  article = path.join(contentDir, 'articles', 'en_US', 'first-steps.md');
  original = await readFile(article, 'utf8');
  dev = await startDev({ contentDir, outDir: path.join(await tempDir('felt-dev-sec-'), 'dist'), port: 0, log: () => undefined });
}, 120_000);

afterAll(() => dev?.close());

/** A POST as a browser on another site would send it: its own Host and Origin headers. */
function post(headers: Record<string, string>, body: unknown): Promise<number> {
  const url = new URL(dev.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: '/__felt/title', method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('felt dev request targets', () => {
  it('answers 400 to a request target no URL parser takes (GET http://[ HTTP/1.1), and keeps serving', async () => {
    const url = new URL(dev.url);
    for (const target of ['http://[', 'http://x:99999/']) {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(url.port), url.hostname, () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
        );
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.setTimeout(5_000, () => socket.destroy());
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
      expect(reply.split('\r\n')[0], target).toBe('HTTP/1.1 400 Bad Request');
      // Its own answers are never sniffed into another type either.
      expect(reply.toLowerCase(), target).toContain('\r\nx-content-type-options: nosniff\r\n');
    }
    expect((await fetch(`${dev.url}/`)).status).toBe(200);
  });

  it("sends nosniff with the dev server's own answers: its client script, its refusals and its event stream", async () => {
    const client = await fetch(`${dev.url}/__felt/dev.js`);
    expect(client.status).toBe(200);
    expect(client.headers.get('x-content-type-options')).toBe('nosniff');
    const url = new URL(dev.url);
    const refused = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: url.hostname, port: url.port, path: '/__felt/events', headers: { host: 'attacker.example' } }, resolve).on('error', reject),
    );
    refused.resume();
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    const controller = new AbortController();
    const events = await fetch(`${dev.url}/__felt/events`, { signal: controller.signal });
    expect(events.headers.get('x-content-type-options')).toBe('nosniff');
    controller.abort();
  });
});

describe('felt dev error overlay', () => {
  it('names local files only to loopback host names, not through DNS rebinding', async () => {
    const broken = await fixtureCopy({ 'articles/en_US/broken.md': '---\ntitle: [unclosed\n---\nBody.\n' });
    const failing = await startDev({ contentDir: broken, outDir: path.join(await tempDir('felt-dev-sec-'), 'dist'), port: 0, log: () => undefined });
    try {
      const url = new URL(failing.url);
      const get = (host: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = http.get({ host: url.hostname, port: url.port, path: '/', headers: { Host: host, Accept: 'text/html' } }, (response) => {
            let body = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, body }));
          });
          request.on('error', reject);
        });
      const own = await get(`127.0.0.1:${url.port}`);
      expect(own.status).toBe(500);
      expect(own.body).toContain('broken.md');
      for (const host of [`evil.example:${url.port}`, `127.0.0.1.nip.io:${url.port}`]) {
        const rebound = await get(host);
        expect(rebound.status, host).toBe(500);
        expect(rebound.body, host).not.toContain('broken.md');
        expect(rebound.body, host).not.toContain(broken);
      }
    } finally {
      await failing.close();
    }
  });
});

describe('felt dev title editor', () => {
  it('refuses a post from another origin', async () => {
    const port = new URL(dev.url).port;
    expect(await post({ Host: `127.0.0.1:${port}`, Origin: 'https://evil.example' }, { slug: 'first-steps', title: 'Defaced' })).toBe(403);
    expect(await post({ Host: `127.0.0.1:${port}`, Origin: 'null' }, { slug: 'first-steps', title: 'Defaced' })).toBe(403);
    expect(await readFile(article, 'utf8')).toBe(original);
  });

  it("refuses a post through DNS rebinding (Origin and Host both the attacker's name)", async () => {
    const port = new URL(dev.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost.evil.example:${port}`]) {
      expect(await post({ Host: host, Origin: `http://${host}` }, { slug: 'first-steps', title: 'Defaced' }), host).toBe(403);
    }
    expect(await readFile(article, 'utf8')).toBe(original);
  });

  it('refuses slugs that name other files', async () => {
    const port = new URL(dev.url).port;
    const headers = { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` };
    for (const slug of ['../../site', '../ru_RU/pervye-shagi', '/etc/passwd', 'first-steps.md', 'first-steps\u0000']) {
      expect(await post(headers, { slug, title: 'Defaced' }), slug).toBe(400);
    }
    expect(await readFile(article, 'utf8')).toBe(original);
  });

  it('still saves a title posted by its own pages', async () => {
    const port = new URL(dev.url).port;
    const status = await post({ Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` }, { slug: 'first-steps', title: 'First Steps, Edited' });
    expect(status).toBe(204);
    expect(await readFile(article, 'utf8')).toContain('title: "First Steps, Edited"');
  });
});

describe('felt dev under a flood of event streams', () => {
  it('serves a visitor while its own address holds 300 live-reload streams open', async () => {
    // Each stream is an answer that never ends. Counted as in flight, 256 of them
    // held every connection the address may have, and the visitor was refused
    // (ECONNRESET) for as long as they stayed open.
    const url = new URL(dev.url);
    const from = '127.0.0.6';
    const streams: net.Socket[] = [];
    try {
      for (let i = 0; i < 300; i++) {
        const socket = net.connect({ port: Number(url.port), host: url.hostname, localAddress: from }, () =>
          socket.write(`GET /__felt/events HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`),
        );
        socket.on('data', () => {});
        socket.on('error', () => {});
        streams.push(socket);
      }
      await until(() => streams.filter((socket) => socket.bytesRead > 0 || socket.destroyed).length === 300, 'the 300 streams to be answered', 10_000);
      const visitor = await new Promise<number | string>((resolve) => {
        const request = http.get({ host: url.hostname, port: url.port, path: '/robots.txt', localAddress: from, agent: false, timeout: 5000 }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        });
        request.on('timeout', () => request.destroy(new Error('no answer in 5 s')));
        request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
      expect(visitor).toBe(200);
    } finally {
      for (const socket of streams) socket.destroy();
    }
  }, 30_000);
});
