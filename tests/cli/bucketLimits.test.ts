/**
 * Every read of a bucket object names its limit (shared/limits.ts, README "Limits"): felt's own records,
 * a state snapshot's manifest and pack (its gunzip too), retraction records, and the articles generate and
 * publish read. Through the real @google-cloud/storage client against the loopback GCS server, whose
 * `declaredSize` lets a listing claim a size the bytes do not have, and a loopback proxy in front of it that
 * answers one object's download with a storage failure.
 */
import { createServer, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readRecords } from '../../cli/generate/batchRecords.ts';
import { scanExisting } from '../../cli/generate/existing.ts';
import { findArticle } from '../../cli/generate/oneArticle.ts';
import { PUBLISH_RECORD, readPublishRecord } from '../../cli/publishRecord.ts';
import { pull } from '../../cli/pull.ts';
import { createReporter } from '../../cli/report.ts';
import { RESTORE_ABOVE, manifestName, readManifest, readPack } from '../../cli/snapshot.ts';
import { md5Base64 } from '../../cli/storage/checksum.ts';
import { GcsStorage } from '../../cli/storage/gcs.ts';
import type { Bucket } from '../../cli/storage/types.ts';
import { FeltError } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { articleSource, captureStreams, makeFixture, type Fixture } from '../support/fixtureSite.ts';
import { listenOnLoopback } from '../support/loopback.ts';

const MB = 1024 * 1024;
const MARKDOWN = 'text/markdown; charset=utf-8';

let gcs: FakeGcs;
let fixture: Fixture;
beforeAll(async () => void (gcs = await startFakeGcs()));
afterAll(() => gcs.close());
beforeEach(async () => {
  fixture = await makeFixture();
  gcs.buckets.clear();
});
afterEach(() => fixture.cleanup());

const quiet = () => {
  const streams = captureStreams();
  return { reporter: createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false }), streams };
};
const choice = () => ({ storage: 'gcs' as const, apiEndpoint: gcs.url });
/** A bucket of the real client; its waits between the library's own tries cut short. */
const bucketAt = (name: string, apiEndpoint = gcs.url): Bucket =>
  new GcsStorage({ projectId: 'felt-test', apiEndpoint, maxRetryDelaySeconds: 0.05 }).bucket(name);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A loopback proxy to the fake GCS that answers the download of `name` with `status`, and passes everything else on. */
async function refusingDownloadsOf(name: string, status: number) {
  const upstream = new URL(gcs.url);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.searchParams.get('alt') === 'media' && decodeURIComponent(url.pathname).endsWith(`/o/${name}`)) {
      res.writeHead(status, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ error: { code: status, message: `refused ${status}`, errors: [{ message: `refused ${status}` }] } }));
    }
    const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close };
}

describe('a state snapshot (pull --snapshot)', () => {
  const manifestOf = (pack: Buffer, articles: number) =>
    JSON.stringify({
      format: 'felt-state/1',
      locale: 'en_US',
      pack: 'state/articles-en_US.pack.gz',
      md5: md5Base64(pack),
      articles,
      maxGeneration: '1',
      written: '2026-11-30T00:00:00.000Z',
    });

  it('refuses a pack that unpacks to more than its manifest’s articles can fill (a gzip bomb) in one line, and pulls one by one', async () => {
    const slugs = Array.from({ length: RESTORE_ABOVE + 1 }, (_, i) => `article-${i}`);
    for (const slug of slugs) gcs.put('felt-test', `articles/en_US/${slug}.md`, articleSource(slug, `Article ${slug}`), { contentType: MARKDOWN });
    // A well-formed pack naming one article, then 64 MB of zeros: 64 KB on the wire.
    const index = JSON.stringify({ format: 'felt-articles-pack/1', locale: 'en_US', entries: [['article-0', 'elsewhere', 10]] });
    const pack = gzipSync(Buffer.concat([Buffer.from(`${index}\n`), Buffer.alloc(64 * MB)]));
    expect(pack.length).toBeLessThan(MB);
    gcs.put('felt-test', 'state/articles-en_US.pack.gz', pack, { contentType: 'application/gzip' });
    gcs.put('felt-test', manifestName('en_US'), manifestOf(pack, 1), { contentType: 'application/json' });
    const { reporter, streams } = quiet();
    const result = await pull({ contentDir: fixture.contentDir, locales: ['en_US'], snapshot: true, storage: choice(), reporter });
    expect(result.fromSnapshot).toBe(0);
    expect(result.download).toHaveLength(slugs.length);
    expect(result.failed).toEqual([]);
    const lines = streams
      .err()
      .split('\n')
      .filter((line) => line.includes('pack.gz'));
    expect(lines).toEqual([
      "felt: gs://felt-test/state/articles-en_US.pack.gz unpacks to more than 1 MB, more than 1 articles can fill (its manifest's count, at most the 51 listed and 200 more). downloading the articles one by one instead; the next `felt pull --snapshot` rewrites it",
    ]);
  });

  it("bounds a pack by the bucket's listing too: a manifest claiming millions of articles lifts no bound to gigabytes", async () => {
    const bucket = bucketAt('felt-test');
    await bucket.create();
    // 256 MB of zeros (about 250 KB packed): within what a manifest of 1,000,000 articles allows, past what the
    // 0 articles listed (and a stale pack's 200 more) can fill.
    const pack = gzipSync(Buffer.alloc(256 * MB));
    gcs.put('felt-test', 'state/articles-en_US.pack.gz', pack, { contentType: 'application/gzip' });
    const claimed = JSON.parse(manifestOf(pack, 1_000_000)) as Parameters<typeof readPack>[1];
    const refused = await failure(readPack(bucket, claimed, new Map(), 0));
    expect((refused as FeltError).code).toBe('STATE_UNUSABLE');
    expect((refused as FeltError).message).toMatch(
      /^gs:\/\/felt-test\/state\/articles-en_US\.pack\.gz unpacks to more than 200\.\d MB, more than 200 articles can fill \(its manifest's count, at most the 0 listed and 200 more\)$/,
    );
  });

  it('refuses a pack larger than its manifest’s articles can fill before unpacking it, and a manifest over its limit', async () => {
    const bucket = bucketAt('felt-test');
    await bucket.create();
    const pack = gzipSync(Buffer.alloc(MB, 'x'));
    gcs.put('felt-test', 'state/articles-en_US.pack.gz', Buffer.concat([pack, Buffer.alloc(8 * 1024)]), { contentType: 'application/gzip' });
    const empty = { ...(JSON.parse(manifestOf(pack, 0)) as object), articles: 0 } as Parameters<typeof readPack>[1];
    const refused = await failure(readPack(bucket, empty, new Map(), 0));
    expect(refused).toBeInstanceOf(FeltError);
    expect((refused as FeltError).code).toBe('STATE_UNUSABLE');
    expect((refused as FeltError).message).toBe(
      "gs://felt-test/state/articles-en_US.pack.gz is larger than 2 KB, more than 0 articles can fill (its manifest's count, at most the 0 listed and 200 more)",
    );

    gcs.put('felt-test', manifestName('en_US'), manifestOf(pack, 1), { contentType: 'application/json', declaredSize: LIMITS.stateRecordBytes + 1 });
    const manifest = await failure(readManifest(bucket, 'en_US'));
    expect(manifest).toBeInstanceOf(FeltError);
    expect((manifest as FeltError).message).toBe('gs://felt-test/state/articles-en_US.json is larger than the limit of 128 MB for a manifest');
  });
});

describe("felt's own records", () => {
  it('refuses a publish record larger than the limit with one line naming it, the limit and the fix', async () => {
    const prod = bucketAt('felt-test');
    await prod.create();
    gcs.put('felt-test', PUBLISH_RECORD, '{"version": 1, "updated": "x", "objects": {}}', { contentType: 'application/json', declaredSize: 200 * MB });
    const refused = await failure(readPublishRecord(prod));
    expect(refused).toBeInstanceOf(FeltError);
    expect((refused as FeltError).code).toBe('PUBLISH_RECORD_INVALID');
    expect((refused as FeltError).message).toBe('gs://felt-test/felt/publish-record.json is larger than the limit of 128 MB for a publish record');
    expect((refused as FeltError).hint).toMatch(/^restore it, or delete it to start a new record .*see README, "Limits"\)$/);
  });

  it('skips a batch record larger than the limit with a note, keeps the others, and stops on a storage failure instead of calling a record bad', async () => {
    const dev = bucketAt('felt-test-dev');
    await dev.create();
    const record = (batchId: string) =>
      JSON.stringify({
        batchId,
        inputFileId: 'file-1',
        request: { locale: 'en_US', count: 1, date: '2026-11-30' },
        model: 'gpt-4o-mini',
        slots: [0],
        status: 'submitted',
        submittedAt: '2026-11-30T00:00:00.000Z',
      });
    gcs.put('felt-test-dev', 'batches/batch_good.json', record('batch_good'), { contentType: 'application/json' });
    gcs.put('felt-test-dev', 'batches/batch_huge.json', record('batch_huge'), { contentType: 'application/json', declaredSize: 200 * MB });
    const { reporter, streams } = quiet();
    expect((await readRecords(dev, reporter)).map((r) => r.batchId)).toEqual(['batch_good']);
    expect(streams.err()).toBe(
      'skipped gs://felt-test-dev/batches/batch_huge.json: not a batch record (larger than the limit of 128 MB for a record, see README, "Limits"); delete it, or submit its batch again\n',
    );

    const proxy = await refusingDownloadsOf('batches/batch_good.json', 403);
    try {
      const denied = await failure(readRecords(bucketAt('felt-test-dev', proxy.url), quiet().reporter));
      expect((denied as FeltError).code).toBe('STORAGE_DENIED');
    } finally {
      await proxy.close();
    }
  });
});

describe('retraction records (pull)', () => {
  it('leaves out a record larger than the limit, from its listing or while it is read, naming the limit and the fix', async () => {
    gcs.put('felt-test', 'articles/en_US/kept.md', articleSource('kept', 'Kept'), { contentType: MARKDOWN });
    const big = JSON.stringify({ slug: 'gone', locale: 'en_US', padding: 'x'.repeat(100 * 1024) });
    gcs.put('felt-test', 'retracted/en_US/gone.json', big, { contentType: 'application/json' });
    gcs.put('felt-test', 'retracted/en_US/liar.json', big.replace('"gone"', '"liar"'), { contentType: 'application/json', declaredSize: 100 });
    const result = await pull({ contentDir: fixture.contentDir, locales: ['en_US'], storage: choice(), reporter: quiet().reporter });
    expect(result.download).toEqual(['articles/en_US/kept.md']);
    expect(result.failed).toEqual([
      {
        name: 'retracted/en_US/gone.json',
        reason: 'record is 100 KB, larger than the limit of 64 KB; replace or delete it in the bucket (see README, "Limits")',
      },
      {
        name: 'retracted/en_US/liar.json',
        reason: 'record is larger than the limit of 64 KB, whatever its listing says; replace or delete it in the bucket (see README, "Limits")',
      },
    ]);
  });
});

describe('the articles generate reads (existing.ts)', () => {
  // Stored before felt kept a signature in the metadata: the scan reads it to compare its body.
  const unsigned = () => gcs.put('felt-test-dev', 'articles/en_US/old-guide.md', articleSource('old-guide', 'Old Guide'), { contentType: MARKDOWN });

  it.each([
    [503, 'STORAGE_UNAVAILABLE'],
    [403, 'STORAGE_DENIED'],
  ])(
    'fails when storage answers the read with %i, instead of passing the duplicate check unread',
    async (status, code) => {
      await bucketAt('felt-test-dev').create();
      unsigned();
      const proxy = await refusingDownloadsOf('articles/en_US/old-guide.md', status);
      try {
        const refused = await failure(scanExisting(fixture.contentDir, 'en_US', bucketAt('felt-test-dev', proxy.url), 'run-1'));
        expect(refused).toBeInstanceOf(FeltError);
        expect((refused as FeltError).code).toBe(code);
        expect((refused as FeltError).message).toContain('gs://felt-test-dev/articles/en_US/old-guide.md');
      } finally {
        await proxy.close();
      }
    },
    30_000,
  );

  it('describes an article larger than the limit by its metadata, whatever its listing says, and reads the others (a too-large object is no storage failure)', async () => {
    const dev = bucketAt('felt-test-dev');
    await dev.create();
    unsigned();
    const huge = Buffer.concat([Buffer.from(articleSource('huge-guide', 'Huge Guide')), Buffer.alloc(LIMITS.articleBytes, 'a')]);
    gcs.put('felt-test-dev', 'articles/en_US/huge-guide.md', huge, { contentType: MARKDOWN, declaredSize: 100, metadata: { feltTitle: 'Huge Guide' } });
    const existing = await scanExisting(fixture.contentDir, 'en_US', dev, 'run-1');
    expect(existing.registry.size).toBe(2);
  });
});

describe('the article regenerate and translate start from (oneArticle.ts)', () => {
  it('is refused in one line naming it, the limit and the fix when the dev bucket holds more than an article can be', async () => {
    const dev = bucketAt('felt-test-dev');
    await dev.create();
    const huge = Buffer.concat([Buffer.from(articleSource('huge-guide', 'Huge Guide')), Buffer.alloc(LIMITS.articleBytes, 'a')]);
    gcs.put('felt-test-dev', 'articles/en_US/huge-guide.md', huge, { contentType: MARKDOWN, declaredSize: 100 });
    const refused = await failure(findArticle(fixture.contentDir, [], dev, 'huge-guide', 'en_US'));
    expect(refused).toBeInstanceOf(FeltError);
    expect((refused as FeltError).code).toBe('OBJECT_TOO_LARGE');
    expect((refused as FeltError).message).toBe('gs://felt-test-dev/articles/en_US/huge-guide.md is larger than the limit of 1 MB, whatever its listing says');
    expect((refused as FeltError).hint).toBe('replace or remove the object in the bucket (see README, "Limits")');
  });
});
