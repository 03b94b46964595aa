/**
 * Range requests to a real `felt serve` (node bin/felt.js serve) on 127.0.0.1: one byte range is a 206 with its
 * piece, a range past the end a 416, anything else the whole file; a range is of the file's own bytes, never a piece
 * of a brotli or gzip stream. Before, every Range header was ignored: 200 and the whole file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startDev } from '../../site/dev/devServer.ts';
import { chooseRange } from '../../site/serve/ranges.ts';
import { FELT_BIN, REPO } from '../support/cli.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { httpRequest } from '../support/httpRequest.ts';
import { servedAt } from '../support/feltServe.ts';

let felt: ChildProcess;
let base: URL;
/** A file of random bytes (served as it is) and a text file (served compressed to those who ask). */
let clip: Buffer;
let notes: Buffer;
let distDir: string;

/** A request to felt serve, or to another server (`origin`). */
const request = (pathname: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET', origin = base.href) =>
  httpRequest(origin, pathname, headers, method);

beforeAll(async () => {
  const content = await fixtureCopy();
  const dist = path.join(path.dirname(content), 'dist');
  await buildSite({ contentDir: content, outDir: dist });
  clip = randomBytes(300_000);
  notes = Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i}: the closing line moved before the kick-off\n`).join(''));
  await writeFile(path.join(dist, 'clip.bin'), clip);
  await writeFile(path.join(dist, 'notes.txt'), notes);
  // Written an hour ago, as a built site's files are by the time they are downloaded: a strong Last-Modified date.
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await utimes(path.join(dist, 'clip.bin'), anHourAgo, anHourAgo);
  distDir = dist;
  felt = spawn(process.execPath, [FELT_BIN, 'serve', '--dist', dist, '--port', '0'], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  base = new URL(await servedAt(felt));
}, 120_000);

afterAll(() => {
  felt?.kill();
});

describe('felt serve, Range', () => {
  it('answers one range with 206, its Content-Range and Content-Length, and the bytes asked', async () => {
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=299000-', 299_000, 299_999],
      ['bytes=-500', 299_500, 299_999],
      // Past the end: cut at the end; a suffix longer than the file: all of it.
      ['bytes=299990-400000', 299_990, 299_999],
      ['bytes=-1000000', 0, 299_999],
      // Overlapping or touching ranges are one.
      ['bytes=0-9,5-19,20-29', 0, 29],
    ] as const) {
      const answer = await request('/clip.bin', { Range: range });
      expect(answer.status, range).toBe(206);
      expect(answer.headers['content-range'], range).toBe(`bytes ${start}-${end}/300000`);
      expect(answer.headers['content-length'], range).toBe(String(end - start + 1));
      expect(answer.body.equals(clip.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('sends the whole file with Accept-Ranges: bytes when no range is asked', async () => {
    const answer = await request('/clip.bin');
    expect(answer.status).toBe(200);
    expect(answer.headers['accept-ranges']).toBe('bytes');
    expect(answer.headers['content-length']).toBe('300000');
    expect(answer.body.equals(clip)).toBe(true);
  });

  it('answers a range wholly past the end with 416 and Content-Range: bytes */size', async () => {
    for (const range of ['bytes=300000-', 'bytes=400000-500000', 'bytes=-0']) {
      const answer = await request('/clip.bin', { Range: range });
      expect(answer.status, range).toBe(416);
      expect(answer.headers['content-range'], range).toBe('bytes */300000');
      expect(answer.headers['cache-control'], range).toBeUndefined();
    }
  });

  it('answers several separate ranges, and a header it cannot read, with 200 and the whole file', async () => {
    for (const range of ['bytes=0-9,100-109', 'bytes=500-100', 'items=0-9', 'bytes=abc', 'bytes=', 'bytes=-']) {
      const answer = await request('/clip.bin', { Range: range });
      expect(answer.status, range).toBe(200);
      expect(answer.headers['content-range'], range).toBeUndefined();
      expect(answer.body.equals(clip), range).toBe(true);
    }
  });

  it('honours If-Range: the Last-Modified date gets the range, an older date or an entity tag the whole file', async () => {
    const whole = await request('/clip.bin');
    const lastModified = whole.headers['last-modified']!;
    const current = await request('/clip.bin', { Range: 'bytes=10-19', 'If-Range': lastModified });
    expect(current.status).toBe(206);
    expect(current.body.equals(clip.subarray(10, 20))).toBe(true);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    // felt's tags are weak (one tag for every coding of a file): If-Range compares strongly, so a tag never matches.
    for (const ifRange of [older, whole.headers.etag!, '"someone-else"']) {
      const answer = await request('/clip.bin', { Range: 'bytes=10-19', 'If-Range': ifRange });
      expect(answer.status, ifRange).toBe(200);
      expect(answer.body.equals(clip), ifRange).toBe(true);
    }
  });

  it('sends the whole file for an If-Range date that is not a second older than the answer, the range once it is', async () => {
    // Dates count whole seconds: a file replaced within the second of its Last-Modified keeps that date, and a range
    // of the new copy would complete a download of the old. A date not before the answer's Date is no proof.
    const fresh = randomBytes(5_000);
    await writeFile(path.join(distDir, 'fresh.bin'), fresh);
    // Its date ahead of the server's clock (the answer's Date is never a second past it), so the case is certain.
    const ahead = new Date(Date.now() + 30_000);
    await utimes(path.join(distDir, 'fresh.bin'), ahead, ahead);
    const lastModified = (await request('/fresh.bin')).headers['last-modified']!;
    const answer = await request('/fresh.bin', { Range: 'bytes=10-19', 'If-Range': lastModified });
    expect(Date.parse(answer.headers.date!)).toBeLessThan(Date.parse(lastModified) + 1000);
    expect(answer.status).toBe(200);
    expect(answer.body.equals(fresh)).toBe(true);
    // A minute older than the answer: the same kind of date gets the range.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(path.join(distDir, 'fresh.bin'), aMinuteAgo, aMinuteAgo);
    const older = (await request('/fresh.bin')).headers['last-modified']!;
    const part = await request('/fresh.bin', { Range: 'bytes=10-19', 'If-Range': older });
    expect(part.status).toBe(206);
    expect(part.body.equals(fresh.subarray(10, 20))).toBe(true);
  });

  it('answers HEAD as it answers GET, without the body', async () => {
    const part = await request('/clip.bin', { Range: 'bytes=100-199' }, 'HEAD');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/300000');
    expect(part.headers['content-length']).toBe('100');
    expect(part.body.length).toBe(0);
    const whole = await request('/clip.bin', {}, 'HEAD');
    expect([whole.status, whole.headers['accept-ranges'], whole.headers['content-length']]).toEqual([200, 'bytes', '300000']);
    const past = await request('/clip.bin', { Range: 'bytes=300000-' }, 'HEAD');
    expect([past.status, past.headers['content-range'], past.body.length]).toEqual([416, 'bytes */300000', 0]);
  });

  it('cuts a range out of the file as it is, not out of its gzip or brotli stream', async () => {
    const compressed = await request('/notes.txt', { 'Accept-Encoding': 'gzip' });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['accept-ranges']).toBeUndefined();
    expect(gunzipSync(compressed.body).equals(notes)).toBe(true);
    const part = await request('/notes.txt', { 'Accept-Encoding': 'br, gzip', Range: 'bytes=100-299' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 100-299/${notes.length}`);
    expect(part.body.equals(notes.subarray(100, 300))).toBe(true);
    // A client that refuses the bytes as they are gets the whole file, compressed.
    const refused = await request('/notes.txt', { 'Accept-Encoding': 'gzip, identity;q=0', Range: 'bytes=100-299' });
    expect([refused.status, refused.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gunzipSync(refused.body).equals(notes)).toBe(true);
  });
});

describe('felt dev, Range', () => {
  it('answers a range of a file as felt serve does, and a page (which it rewrites) whole', async () => {
    const content = await fixtureCopy();
    // content/static/: the operator's own files, served as the site's.
    await mkdir(path.join(content, 'static'), { recursive: true });
    await writeFile(path.join(content, 'static', 'clip.bin'), clip);
    const dev = await startDev({ contentDir: content, outDir: path.join(await tempDir(), 'dev'), port: 0, log: () => {} });
    try {
      const part = await request('/clip.bin', { Range: 'bytes=10-19' }, 'GET', dev.url);
      expect([part.status, part.headers['content-range']]).toEqual([206, 'bytes 10-19/300000']);
      expect(part.body.equals(clip.subarray(10, 20))).toBe(true);
      const page = await request('/articles/table-talk', { Range: 'bytes=0-9' }, 'GET', dev.url);
      expect(page.status).toBe(200);
      expect(page.body.toString()).toMatch(/<script src="\/__felt\/dev\.js" type="module" data-build="\d+"><\/script><\/body>/);
    } finally {
      await dev.close();
    }
  }, 120_000);
});

describe('chooseRange, If-Range by date', () => {
  it('takes the Last-Modified date as proof only from the second after it: a strong date (RFC 9110, 8.8.2.2)', () => {
    const lastModified = 'Mon, 30 Nov 2026 02:00:00 GMT';
    const modified = Date.parse(lastModified);
    const validators = { etag: 'W/"1388-19ad"', lastModified };
    const headers = { range: 'bytes=10-19', 'if-range': lastModified };
    expect(chooseRange(headers, 5_000, validators, modified)).toEqual({ kind: 'whole' });
    expect(chooseRange(headers, 5_000, validators, modified + 999)).toEqual({ kind: 'whole' });
    expect(chooseRange(headers, 5_000, validators, modified + 1_000)).toEqual({ kind: 'part', start: 10, end: 19 });
    expect(chooseRange({ ...headers, 'if-range': 'Mon, 30 Nov 2026 01:59:59 GMT' }, 5_000, validators, modified + 60_000)).toEqual({ kind: 'whole' });
  });
});
