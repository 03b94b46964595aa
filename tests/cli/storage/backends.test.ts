/**
 * The same contract on both backends: the local folder bucket, and the real
 * @google-cloud/storage client against the fake GCS server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Base64 } from '../../../cli/storage/checksum.ts';
import { isPreconditionFailed } from '../../../cli/storage/errors.ts';
import { GcsStorage, REQUEST_TIMEOUT_MS } from '../../../cli/storage/gcs.ts';
import { FeltError } from '../../../shared/errors.ts';
import { LocalStorage } from '../../../cli/storage/local.ts';
import { listInRanges, nameRanges } from '../../../cli/storage/nameRanges.ts';
import type { Storage } from '../../../cli/storage/types.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { listenOnLoopback } from '../../support/loopback.ts';
import { LIMITS } from '../../../shared/limits.ts';

let gcs: FakeGcs;
let tmp: string;

beforeAll(async () => {
  gcs = await startFakeGcs();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'felt-storage-'));
});
afterAll(async () => {
  await gcs.close();
  await rm(tmp, { recursive: true, force: true });
});

const backends: [string, () => Storage][] = [
  ['local', () => new LocalStorage(tmp)],
  ['gcs', () => new GcsStorage({ projectId: 'felt-test', apiEndpoint: gcs.url })],
];

describe.each(backends)('%s backend', (_kind, open) => {
  it('creates buckets, writes, lists, reads, copies, patches and deletes', async () => {
    const storage = open();
    const a = storage.bucket('mag-dev');
    const b = storage.bucket('mag');
    if (!(await a.exists())) await a.create();
    if (!(await b.exists())) await b.create();
    expect(await storage.listBuckets()).toEqual(expect.arrayContaining(['mag', 'mag-dev']));

    const body = Buffer.from('---\ntitle: x\n---\nhello\n');
    const info = await a.write('articles/en_US/x.md', body, { contentType: 'text/markdown; charset=utf-8', metadata: { title: 'X' }, ifGenerationMatch: 0 });
    expect(info.md5).toBe(md5Base64(body));
    await expect(a.write('articles/en_US/x.md', body, { contentType: 'text/markdown', ifGenerationMatch: 0 })).rejects.toSatisfy(isPreconditionFailed);

    await a.write('articles/ru_RU/y.md', Buffer.from('y'), { contentType: 'text/markdown' });
    const listed = await a.list('articles/en_US/');
    expect(listed.map((o) => o.name)).toEqual(['articles/en_US/x.md']);
    expect(listed[0]!.metadata.title).toBe('X');
    expect(listed[0]!.contentType).toBe('text/markdown; charset=utf-8');
    expect((await a.read('articles/en_US/x.md', { maxBytes: LIMITS.articleBytes })).toString()).toBe(body.toString());

    const copied = await a.copyTo('articles/en_US/x.md', b, 'articles/en_US/x.md', { ifGenerationMatch: 0 });
    expect(copied.md5).toBe(info.md5);
    await expect(a.copyTo('articles/en_US/x.md', b, 'articles/en_US/x.md', { ifGenerationMatch: 0 })).rejects.toSatisfy(isPreconditionFailed);

    const patched = await b.patch('articles/en_US/x.md', { cacheControl: 'no-cache' });
    expect(patched.cacheControl).toBe('no-cache');
    expect((await b.stat('articles/en_US/x.md'))?.cacheControl).toBe('no-cache');

    await b.delete('articles/en_US/x.md');
    expect(await b.stat('articles/en_US/x.md')).toBeUndefined();
  });

  it('writes large objects with a resumable upload and lists many pages', async () => {
    const bucket = open().bucket('mag-dev');
    const big = Buffer.alloc(300_000, 7);
    const info = await bucket.write('big/file.bin', big, { contentType: 'application/octet-stream', resumable: true });
    expect(info.size).toBe(big.length);
    expect((await bucket.read('big/file.bin', { maxBytes: big.length })).equals(big)).toBe(true);
    for (let i = 0; i < 30; i++) await bucket.write(`many/${String(i).padStart(3, '0')}.txt`, Buffer.from(String(i)), { contentType: 'text/plain' });
    expect((await bucket.list('many/')).length).toBe(30);
  });

  it('reads no more than maxBytes: a larger object is refused in one line naming it and the limit, however its listing understates it', async () => {
    const bucket = open().bucket('mag-dev');
    await bucket.write('limited/two-kb.bin', Buffer.alloc(2048, 1), { contentType: 'application/octet-stream' });
    expect((await bucket.read('limited/two-kb.bin', { maxBytes: 2048 })).length).toBe(2048);
    const refused = await bucket.read('limited/two-kb.bin', { maxBytes: 1024 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FeltError);
    expect((refused as FeltError).code).toBe('OBJECT_TOO_LARGE');
    expect((refused as FeltError).message).toBe(`${bucket.location}/limited/two-kb.bin is larger than the limit of 1 KB, whatever its listing says`);
    expect((refused as FeltError).hint).toBe('replace or remove the object in the bucket (see README, "Limits")');
  });

  it('lists a name range (from included, before excluded), and ranges cut by nameRanges hold every name once', async () => {
    const bucket = open().bucket('mag-dev');
    const names = Array.from({ length: 12 }, (_, i) => `ranged/${String(i).padStart(2, '0')}.txt`).concat('ranged/é.txt', 'ranged/😀.txt', 'ranged/\uffff.txt');
    for (const name of names) await bucket.write(name, Buffer.from(name), { contentType: 'text/plain' });
    expect((await bucket.list('ranged/', { from: 'ranged/03.txt', before: 'ranged/06.txt' })).map((o) => o.name)).toEqual([
      'ranged/03.txt',
      'ranged/04.txt',
      'ranged/05.txt',
    ]);
    // Cut as for 12,000 names, between names GCS orders by their UTF-8 bytes (U+FFFF before an emoji).
    const ranges = nameRanges(Array.from({ length: 12_000 }, (_, i) => names[i % names.length]!));
    expect(ranges.length).toBeGreaterThan(1);
    const listed = (await listInRanges(bucket, 'ranged/', ranges)).map((o) => o.name);
    expect(listed.slice().sort()).toEqual(names.slice().sort());
  });
});

describe('the gcs backend on the wire', () => {
  it('uses multipart and resumable uploads, pageToken lists, alt=media and rewriteTo', async () => {
    const gcsLog = gcs.log.map((r) => `${r.kind} ${r.query.uploadType ?? ''}`);
    expect(gcsLog).toContain('object.upload multipart');
    expect(gcsLog).toContain('object.upload.start resumable');
    expect(gcs.count('object.download')).toBeGreaterThan(0);
    expect(gcs.count('object.rewrite')).toBeGreaterThan(0);
    expect(gcs.count('object.patch')).toBe(1);
    expect(gcs.count('object.delete')).toBe(1);
    expect(gcs.count('bucket.insert')).toBe(2);
  });

  it('honours STORAGE_EMULATOR_HOST and pages through lists', async () => {
    process.env.STORAGE_EMULATOR_HOST = gcs.url;
    try {
      const storage = new GcsStorage({ projectId: 'felt-test' });
      for (let i = 0; i < 2100; i++) gcs.put('paged', `articles/en_US/a${i}.md`, `x${i}`);
      gcs.resetLog();
      const listed = await storage.bucket('paged').list('articles/en_US/');
      expect(listed.length).toBe(2100);
      expect(gcs.count('object.list')).toBe(3);
      expect(gcs.log.filter((r) => r.query.pageToken).length).toBe(2);
    } finally {
      delete process.env.STORAGE_EMULATOR_HOST;
    }
  });

  it('lists with a fields mask (GCS sends only what felt reads) and still describes each object whole', async () => {
    const storage = new GcsStorage({ projectId: 'felt-test', apiEndpoint: gcs.url });
    gcs.put('masked', 'site/a.html', 'a', { contentType: 'text/html', cacheControl: 'no-cache', metadata: { 'felt-source-md5': 'abc' } });
    for (let i = 0; i < 1001; i++) gcs.put('masked', `site/b${i}.txt`, `b${i}`);
    gcs.resetLog();
    const listed = await storage.bucket('masked').list('site/');
    const pages = gcs.log.filter((r) => r.kind === 'object.list');
    expect(pages.length).toBe(2);
    for (const page of pages)
      expect(page.query.fields).toBe('items(name,size,md5Hash,crc32c,generation,contentType,contentEncoding,cacheControl,metadata),nextPageToken');
    const stored = gcs.buckets.get('masked')!.get('site/a.html')!;
    expect(listed[0]).toEqual({
      name: 'site/a.html',
      size: 1,
      md5: md5Base64(Buffer.from('a')),
      crc32c: expect.any(String),
      generation: String(stored.generation),
      contentType: 'text/html',
      cacheControl: 'no-cache',
      metadata: { 'felt-source-md5': 'abc' },
    });
    expect(listed.length).toBe(1002);
  });
});

describe('a GCS endpoint that takes a request and never answers', () => {
  it('gives every request a timeout, and a call that meets only silence ends in one felt error instead of waiting forever', async () => {
    // The library documents a 60 s default it does not apply on this path: without one of felt's, a call waited forever.
    expect((await new GcsStorage({ projectId: 'felt-test', apiEndpoint: gcs.url }).client()).timeout).toBe(REQUEST_TIMEOUT_MS);
    const held: ServerResponse[] = [];
    const silent = await listenOnLoopback(createServer((_request, response) => void held.push(response)));
    try {
      const storage = new GcsStorage({
        projectId: 'felt-test',
        apiEndpoint: `http://127.0.0.1:${silent.port}`,
        timeoutMs: 50,
        maxRetryDelaySeconds: 0.05,
      });
      const failure = await storage
        .bucket('site')
        .list('articles/')
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(FeltError);
      expect((failure as FeltError).code).toBe('STORAGE_FAILED');
      expect((failure as FeltError).message).toMatch(/^gs:\/\/site: no answer \(the storage took the request and did not reply/);
      // Tried again, as the library tries any request that failed this way (its waits between tries cut short here).
      expect(held.length).toBeGreaterThan(1);
    } finally {
      await silent.close();
    }
  }, 60_000);
});
