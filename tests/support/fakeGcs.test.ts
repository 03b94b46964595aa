/**
 * The loopback GCS server answers listings as GCS does, through the real
 * @google-cloud/storage client: pages in name order whose token names where
 * the next page starts, and a page that costs its own objects only, so the
 * 100,000-article bench measures felt and not the fake's scans.
 */
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGcs, type FakeGcs } from './fakeGcs.ts';

let gcs: FakeGcs;
let client: Storage;

beforeAll(async () => {
  gcs = await startFakeGcs();
  client = new Storage({ projectId: 'felt-test', apiEndpoint: gcs.url });
});
afterAll(() => gcs.close());

const name = (n: number) => `articles/en_US/a-${String(n).padStart(6, '0')}.md`;

/** Every page of a listing, one request each, with what the server's bucket is given between pages. */
async function listPages(bucket: string, query: { prefix?: string; delimiter?: string }, between?: (page: number) => void) {
  const pages: { names: string[]; prefixes: string[] }[] = [];
  let pageToken: string | undefined;
  do {
    const [files, next, response] = await client
      .bucket(bucket)
      .getFiles({ ...query, autoPaginate: false, maxResults: 1000, ...(pageToken ? { pageToken } : {}) });
    pages.push({ names: files.map((f) => f.name), prefixes: (response as { prefixes?: string[] }).prefixes ?? [] });
    pageToken = (next as { pageToken?: string } | null)?.pageToken;
    between?.(pages.length);
  } while (pageToken);
  return pages;
}

describe('fake GCS listings', () => {
  it('pages every name once, in order, and a page token still holds after names before it were deleted', async () => {
    for (let n = 0; n < 2500; n++) gcs.put('paged', name(n), 'x');
    gcs.put('paged', 'other/z.md', 'x');
    const pages = await listPages('paged', { prefix: 'articles/' }, (page) => {
      // Between page 1 and page 2 another writer deletes ten names of page 1: GCS's next page still starts at a-001000.
      if (page === 1) for (let n = 0; n < 10; n++) gcs.buckets.get('paged')!.delete(name(n));
    });
    expect(pages.map((p) => p.names.length)).toEqual([1000, 1000, 500]);
    expect(pages.flatMap((p) => p.names)).toEqual(Array.from({ length: 2500 }, (_, n) => name(n)));
  });

  it("answers a page of a 30,000-object bucket by reading that page's objects, not every name", async () => {
    for (let n = 0; n < 30_000; n++) gcs.put('large', name(n), 'x');
    const bucket = gcs.buckets.get('large')!;
    let reads = 0;
    const { has, get } = bucket;
    bucket.has = (key) => (reads++, has.call(bucket, key));
    bucket.get = (key) => (reads++, get.call(bucket, key));
    const pages = await listPages('large', { prefix: 'articles/en_US/' });
    expect(pages).toHaveLength(30);
    expect(reads).toBeLessThanOrEqual(30_000);
  });

  it('with a delimiter, returns each common prefix once, counted in the page like an object', async () => {
    for (const locale of ['en_US', 'ru_RU', 'tr_TR']) for (let n = 0; n < 600; n++) gcs.put('nested', `articles/${locale}/a-${n}.md`, 'x');
    gcs.put('nested', 'articles/index.json', 'x');
    const pages = await listPages('nested', { prefix: 'articles/', delimiter: '/' });
    expect(pages).toEqual([{ names: ['articles/index.json'], prefixes: ['articles/en_US/', 'articles/ru_RU/', 'articles/tr_TR/'] }]);
  });

  it('orders names by their UTF-8 bytes, as GCS does, in pages and in name ranges (U+FFFD before an emoji)', async () => {
    // UTF-8: ~ 7E, U+E000 EE 80 80, U+FFFD EF BF BD, 😀 F0 9F 98 80. UTF-16 units would put the emoji (D83D) before U+E000.
    const inOrder = ['o/a~', 'o/a\ue000', 'o/a\ufffd', 'o/a😀', 'o/a😀x', 'o/b'];
    for (const name of [...inOrder].reverse()) gcs.put('utf8', name, 'x');
    const paged: string[] = [];
    let pageToken: string | undefined;
    do {
      const [files, next] = await client.bucket('utf8').getFiles({ prefix: 'o/', autoPaginate: false, maxResults: 2, ...(pageToken ? { pageToken } : {}) });
      paged.push(...files.map((f) => f.name));
      pageToken = (next as { pageToken?: string } | null)?.pageToken;
    } while (pageToken);
    expect(paged).toEqual(inOrder);
    expect(
      inOrder
        .map((n) => Buffer.from(n))
        .sort(Buffer.compare)
        .map((b) => b.toString()),
    ).toEqual(inOrder);
    const [ranged] = await client.bucket('utf8').getFiles({ prefix: 'o/', startOffset: 'o/a\ufffd', endOffset: 'o/b' });
    expect(ranged.map((f) => f.name)).toEqual(['o/a\ufffd', 'o/a😀', 'o/a😀x']);
  });

  it("sends only the fields a fields mask names, as GCS does (felt asks for nine of a resource's fields)", async () => {
    gcs.put('masked', 'articles/en_US/a.md', 'x', { contentType: 'text/markdown', metadata: { title: 'A' } });
    gcs.put('masked', 'articles/en_US/b.md', 'y', { contentType: 'text/markdown' });
    const response = await fetch(`${gcs.url}/storage/v1/b/masked/o?maxResults=1&fields=${encodeURIComponent('items(name,md5Hash,metadata),nextPageToken')}`);
    const page = (await response.json()) as { items: Record<string, unknown>[]; nextPageToken?: string; kind?: string };
    expect(page.kind).toBeUndefined();
    expect(page.items).toEqual([{ name: 'articles/en_US/a.md', md5Hash: expect.any(String), metadata: { title: 'A' } }]);
    expect(page.nextPageToken).toEqual(expect.any(String));
  });
});
