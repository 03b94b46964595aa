/**
 * `generation.images` (issue 18 item 7): felt generate asks the provider's
 * images API for each stored article's cover, through the real openai client
 * against the loopback server, stores it beside the article in the dev
 * bucket (the loopback GCS server here), and publish and pull carry it to
 * content/images/{locale}/{slug}.png, where the build uses it.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generate, type GenerateOptions, type RunSummary } from '../../../cli/generate/run.ts';
import { publish } from '../../../cli/publish.ts';
import { pull } from '../../../cli/pull.ts';
import { createReporter } from '../../../cli/report.ts';
import { findProviderPictures } from '../../../site/pictures/providerPictures.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { captureStreams, makeFixture, type Fixture } from '../../support/fixtureSite.ts';

const KEY = 'sk-test-secret-key-0123456789';
const IMAGES = { model: 'gpt-image-1', size: '1536x1024', quality: 'low' };
let llm: FakeOpenAi;
let gcs: FakeGcs;
let fixture: Fixture;
let red: Buffer;

beforeAll(async () => {
  llm = await startFakeOpenAi();
  gcs = await startFakeGcs();
  red = await sharp({ create: { width: 1536, height: 1024, channels: 3, background: { r: 210, g: 30, b: 40 } } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await llm.close();
  await gcs.close();
});
afterEach(() => fixture.cleanup());

function options(extra: Partial<GenerateOptions> = {}) {
  const streams = captureStreams();
  const opts: GenerateOptions = {
    contentDir: fixture.contentDir,
    locale: 'en_US',
    count: 2,
    concurrency: 2,
    date: '2026-04-01',
    llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000, maxRetries: 0 },
    storage: { storage: 'gcs', apiEndpoint: gcs.url },
    reporter: createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false }),
    ...extra,
  };
  return { opts, streams };
}

describe('generation.images', () => {
  beforeEach(async () => {
    fixture = await makeFixture({ settings: { generation: { model: 'gpt-4o-mini', prices: {}, images: IMAGES } } });
    llm.images.length = 0;
    llm.imageReply = () => ({ image: red });
  });

  it('stores a picture beside each article in the dev bucket, then publish and pull bring it to the build', async () => {
    const { opts, streams } = options({ date: '2026-04-01' });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(2);
    expect(llm.images).toHaveLength(2);
    const asked = llm.images[0]!.body;
    expect(asked).toMatchObject({ model: 'gpt-image-1', size: '1536x1024', quality: 'low', n: 1 });
    expect(asked.response_format).toBeUndefined();
    expect(asked.prompt).toMatch(/No text/);

    const dev = gcs.buckets.get('felt-test-dev')!;
    for (const { slug } of summary.stored) {
      const picture = dev.get(`images/en_US/${slug}.png`);
      expect(picture?.contentType).toBe('image/png');
      expect(picture!.data.equals(red)).toBe(true);
      expect(streams.err()).toContain(`stored images/en_US/${slug}.png`);
    }

    const published = await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: opts.storage, reporter: opts.reporter });
    expect(published.copied.filter((name) => name.startsWith('images/'))).toHaveLength(2);
    const pulled = await pull({ contentDir: fixture.contentDir, storage: opts.storage, reporter: opts.reporter });
    expect(pulled.failed).toEqual([]);
    const local = (await readdir(path.join(fixture.contentDir, 'images', 'en_US'))).sort();
    expect(local).toEqual(summary.stored.map((s) => `${s.slug}.png`).sort());
    expect((await readFile(path.join(fixture.contentDir, 'images', 'en_US', local[0]!))).equals(red)).toBe(true);
    // Pulled again, nothing is downloaded.
    const again = await pull({ contentDir: fixture.contentDir, storage: opts.storage, reporter: opts.reporter });
    expect(again.download).toEqual([]);

    // Where the build looks for them (the build with a picture: tests/site/pictures.test.ts).
    expect([...findProviderPictures(fixture.contentDir, 'en_US').keys()].sort()).toEqual(summary.stored.map((s) => s.slug).sort());
  });

  it('keeps the article when the picture fails, and says so', async () => {
    llm.imageReply = () => ({ status: 400 });
    const { opts, streams } = options({ count: 1, date: '2026-04-02' });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(1);
    expect(summary.failed).toEqual([]);
    const dev = gcs.buckets.get('felt-test-dev')!;
    expect(dev.has(`articles/en_US/${summary.stored[0]!.slug}.md`)).toBe(true);
    expect(dev.has(`images/en_US/${summary.stored[0]!.slug}.png`)).toBe(false);
    expect(streams.err()).toContain(`picture for ${summary.stored[0]!.slug} skipped`);
    expect(streams.text()).not.toContain(KEY);
  });

  it('asks DALL·E models for base64 and refuses an answer that is not a PNG', async () => {
    await fixture.cleanup();
    fixture = await makeFixture({ settings: { generation: { model: 'gpt-4o-mini', prices: {}, images: { model: 'dall-e-3' } } } });
    llm.imageReply = () => ({ image: Buffer.from('GIF89a not a png') });
    const { opts, streams } = options({ count: 1, date: '2026-04-03' });
    const summary = (await generate(opts)) as RunSummary;
    expect(llm.images[0]!.body.response_format).toBe('b64_json');
    expect(streams.err()).toContain('not a PNG');
    expect(gcs.buckets.get('felt-test-dev')!.has(`images/en_US/${summary.stored[0]!.slug}.png`)).toBe(false);
  });
});

describe('without generation.images', () => {
  beforeEach(async () => {
    fixture = await makeFixture();
    llm.images.length = 0;
    llm.imageReply = () => ({ image: red });
  });

  it('asks for no picture', async () => {
    const summary = (await generate(options({ count: 1, date: '2026-04-04' }).opts)) as RunSummary;
    expect(summary.stored).toHaveLength(1);
    expect(llm.images).toEqual([]);
  });
});
