import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectBatches, submitBatch } from '../../../cli/generate/batch.ts';
import { generate, type GenerateOptions, type RunSummary } from '../../../cli/generate/run.ts';
import { createReporter } from '../../../cli/report.ts';
import { parseArticle } from '../../../site/content/parseArticle.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { captureStreams, makeFixture, type Fixture } from '../../support/fixtureSite.ts';

const KEY = 'sk-test-secret-key-0123456789';
let llm: FakeOpenAi;
let gcs: FakeGcs;
let fixture: Fixture;

beforeAll(async () => {
  llm = await startFakeOpenAi();
  gcs = await startFakeGcs();
  process.env.OPENAI_API_KEY = KEY;
});
afterAll(async () => {
  await llm.close();
  await gcs.close();
});
beforeEach(async () => {
  fixture = await makeFixture();
  llm.reply = () => undefined;
  llm.delayMs = 0;
  llm.chats.length = 0;
  llm.log.length = 0;
});
afterEach(() => fixture.cleanup());

function options(extra: Partial<GenerateOptions> = {}) {
  const streams = captureStreams();
  const opts: GenerateOptions = {
    contentDir: fixture.contentDir,
    locale: 'en_US',
    count: 3,
    concurrency: 3,
    date: '2026-04-01',
    llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000 },
    reporter: createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false }),
    ...extra,
  };
  return { opts, streams };
}

/** Holds each caller until `count` callers have arrived (or 10 s passed, so a missing one fails an assertion, not the timeout). */
function gate(count: number): { arrive(): Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  setTimeout(open, 10_000).unref();
  let arrived = 0;
  return {
    arrive() {
      if (++arrived === count) open();
      return opened;
    },
  };
}

/** The MaxListenersExceededWarning messages Node prints while `work` runs. */
async function listenerWarnings(work: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
  };
  process.on('warning', onWarning);
  try {
    await work();
    // Node emits a warning on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

async function bucketFiles(locale = 'en_US'): Promise<string[]> {
  return (await readdir(path.join(fixture.root, '.buckets', 'felt-test-dev', 'articles', locale)).catch(() => [])).sort();
}

describe('felt generate', () => {
  it('writes checked articles to the local dev bucket, counting tokens and cost', async () => {
    const { opts, streams } = options({ count: 4, category: 'pokerGuides' });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(4);
    expect(summary.failed).toHaveLength(0);
    expect(summary.usage).toMatchObject({ requests: 4, promptTokens: 4000, completionTokens: 3200 });
    expect(summary.usage.costUsd).toBeCloseTo((4000 * 0.15 + 3200 * 0.6) / 1e6, 10);
    const files = await bucketFiles();
    expect(files).toHaveLength(4);
    const places: string[] = [];
    for (const name of files) {
      const source = await readFile(path.join(fixture.root, '.buckets', 'felt-test-dev', 'articles', 'en_US', name), 'utf8');
      const { article, problems } = parseArticle(source, name, 'en_US');
      expect(problems).toEqual([]);
      expect(article!.entities).toEqual([
        { category: 'pokerGuides', subcategories: [{ subcategory: expect.any(String), subsubcategories: ['Basics', 'Limits'] }] },
      ]);
      places.push(article!.entities[0]!.subcategories![0]!.subcategory);
      expect(article!.date).toBe('2026-04-01');
    }
    // The category's named subcategory and its "other", two each.
    expect(places.sort()).toEqual(['beginnerPokerTips', 'beginnerPokerTips', 'other', 'other']);
    const request = llm.chats[0]!.body;
    expect(request.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'article', strict: true } });
    expect(request.messages[0]!.content).toContain('Language: English');
    expect(request.messages[1]!.content).toContain('Poker Guides');
    expect(streams.err()).toMatch(/\[4\/4\] stored articles\/en_US\//);
    expect(streams.text()).not.toContain(KEY);
  });

  it('writes Russian and Turkish articles that pass the language and suffix checks', async () => {
    for (const locale of ['ru_RU', 'tr_TR']) {
      const summary = (await generate(options({ locale, count: 2 }).opts)) as RunSummary;
      expect(summary.failed).toEqual([]);
      expect(await bucketFiles(locale)).toHaveLength(2);
    }
    expect(llm.chats.some((c) => c.body.messages[0]!.content.includes('-tedir'))).toBe(true);
  });

  it('asks again with the reason, then records the article as failed', async () => {
    const bad = JSON.stringify({
      title: 'Önemli kurallar',
      slug: 'bad',
      description: 'Bu bir test açıklaması, yeterince uzun olmalı.',
      subsubcategories: [],
      body: '<script>alert(1)</script>\n\nKısa metin önemlidir ve gerekmektedir kullanmaktadır.',
    });
    llm.reply = (call) => (call.body.messages.length < 5 ? { content: bad } : undefined);
    const { opts, streams } = options({ locale: 'tr_TR', count: 2, attempts: 3, concurrency: 1 });
    llm.reply = () => ({ content: bad });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(0);
    expect(summary.failed).toHaveLength(2);
    expect(summary.failed[0]!.reason).toMatch(/raw HTML/);
    expect(summary.failed[0]!.reason).toMatch(/-tedir or -tadır/);
    expect(llm.chats).toHaveLength(6);
    const reask = llm.chats[1]!.body.messages;
    expect(reask).toHaveLength(4);
    expect(reask[3]!.content).toMatch(/could not be published: .*raw HTML/);
    expect(streams.err()).toMatch(/asking again/);
  });

  it('keeps a good second answer after a bad first one', async () => {
    llm.reply = (call) => (call.n % 2 === 1 ? { content: 'not json' } : undefined);
    const summary = (await generate(options({ count: 2, concurrency: 1 }).opts)) as RunSummary;
    expect(summary.stored.map((s) => s.attempts)).toEqual([2, 2]);
  });

  it('retries 429 after Retry-After and 500 with backoff, and times out slow answers', async () => {
    let calls = 0;
    llm.reply = () => {
      calls++;
      if (calls === 1) return { status: 429, headers: { 'retry-after': '1' } };
      if (calls === 2) return { status: 500 };
      if (calls === 3) return { delayMs: 1500 };
      return undefined;
    };
    const { opts, streams } = options({ count: 1, llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 800 } });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(1);
    expect(summary.usage.retries).toBe(3);
    expect(streams.err()).toMatch(/retrying after HTTP 429[^]*retrying after HTTP 500[^]*retrying after request timed out/);
    const chatTimes = llm.log.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.at);
    expect(chatTimes[1]! - chatTimes[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries one request 50 times without piling abort listeners on the run signal', async () => {
    // 429 and 500 taking turns, each asking for a 1 ms wait so 50 retries take no time.
    let calls = 0;
    llm.reply = () => (++calls <= 50 ? { status: calls % 2 ? 429 : 500, headers: { 'retry-after-ms': '1' } } : undefined);
    const controller = new AbortController();
    const { opts } = options({ count: 1, signal: controller.signal, llm: { baseURL: llm.url, apiKey: KEY, maxRetries: 50, timeoutMs: 5000 } });
    let summary: RunSummary | undefined;
    expect(await listenerWarnings(async () => void (summary = (await generate(opts)) as RunSummary))).toEqual([]);
    expect(summary!.stored).toHaveLength(1);
    expect(summary!.usage.retries).toBe(50);
    expect(llm.chats).toHaveLength(51);
  });

  it('has more than 10 requests in flight on one run signal without a listener warning', async () => {
    llm.delayMs = 300;
    const controller = new AbortController();
    const { opts } = options({ count: 12, concurrency: 12, signal: controller.signal });
    let summary: RunSummary | undefined;
    expect(await listenerWarnings(async () => void (summary = (await generate(opts)) as RunSummary))).toEqual([]);
    expect(summary!.stored).toHaveLength(12);
  });

  it('spreads the retries of requests rate-limited at the same moment, and they all succeed', async () => {
    const workers = 16;
    // Each worker's request is answered 429 (no Retry-After) twice, every time to all workers at
    // the same instant; each round is held until all have arrived, so nothing else (checking or
    // writing an answer) runs while the second retries' arrival times are taken.
    const rounds = [gate(workers), gate(workers), gate(workers)];
    let calls = 0;
    llm.reply = async () => {
      const round = Math.floor(calls++ / workers);
      await rounds[round]!.arrive();
      return round < 2 ? { status: 429 } : undefined;
    };
    // The waits the SDK chose before each second retry, taken where it asks for them. The requests' arrival times,
    // measured before, also hold how the machine ran the timers: a busy CI run once fired all sixteen in one burst.
    const waits: number[] = [];
    const setTimer = globalThis.setTimeout;
    const timers = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number, ...rest: unknown[]) => {
      // A second retry waits 1 s less up to a quarter of it (jitter); the first 0.5 s, a request's timeout minutes.
      if (typeof ms === 'number' && ms >= 700 && ms <= 1000) waits.push(ms);
      return setTimer(callback, ms, ...rest);
    }) as typeof setTimeout);
    const summary = (await generate(options({ count: workers, concurrency: workers }).opts).finally(() => timers.mockRestore())) as RunSummary;
    expect(summary.stored).toHaveLength(workers);
    expect(summary.usage.retries).toBe(2 * workers);
    expect(llm.log.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(3 * workers);
    expect(waits).toHaveLength(workers);
    // Without jitter all sixteen would wait the same 1,000 ms; with it they spread over up to 250 ms.
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(60);
  });

  it('loses nothing and repeats nothing when a run is interrupted and rerun', async () => {
    const controller = new AbortController();
    llm.delayMs = 50;
    let served = 0;
    llm.reply = () => {
      if (++served === 4) setTimeout(() => controller.abort(), 20);
      return undefined;
    };
    const first = (await generate(options({ count: 8, concurrency: 2, signal: controller.signal }).opts)) as RunSummary;
    expect(first.interrupted).toBe(true);
    const kept = await bucketFiles();
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.length).toBeLessThan(8);
    const before = llm.chats.length;
    llm.reply = () => undefined;
    const second = (await generate(options({ count: 8, concurrency: 2 }).opts)) as RunSummary;
    expect(second.alreadyDone).toBe(kept.length);
    expect(second.stored).toHaveLength(8 - kept.length);
    expect(llm.chats.length - before).toBe(8 - kept.length);
    const all = await bucketFiles();
    expect(all).toHaveLength(8);
    expect(all).toEqual(expect.arrayContaining(kept));
    const third = (await generate(options({ count: 8 }).opts)) as RunSummary;
    expect(third.stored).toHaveLength(0);
    expect(third.alreadyDone).toBe(8);
  });

  it('rejects slugs and titles that exist in content/ or the bucket', async () => {
    const { articleAnswer } = await import('../../support/articles.ts');
    const taken = articleAnswer('en', 1);
    await fixture.cleanup();
    const { makeFixture: make, articleSource } = await import('../../support/fixtureSite.ts');
    fixture = await make({ articles: { [`en_US/${taken.slug}.md`]: articleSource(taken.slug, 'Completely different') } });
    let n = 0;
    llm.reply = () => {
      n++;
      if (n === 1) return { content: JSON.stringify(taken) };
      if (n === 2) return { content: JSON.stringify({ ...articleAnswer('en', 50), title: 'Completely Different!' }) };
      return undefined;
    };
    const summary = (await generate(options({ count: 1 }).opts)) as RunSummary;
    expect(summary.stored[0]!.attempts).toBe(3);
    const third = llm.chats[2]!.body.messages;
    expect(third[3]!.content).toContain('is already taken');
    expect(third[5]!.content).toContain('too close to the existing article');
  });

  it('--dry-run prints the plan and prompts and calls nothing', async () => {
    const { opts, streams } = options({ dryRun: true, count: 2, category: 'betting-strategies', subcategory: 'bankrollManagement' });
    const result = await generate(opts);
    expect(result).toMatchObject({ dryRun: true, plan: [{ category: 'bettingStrategies', subcategory: 'bankrollManagement' }, { slot: 1 }] });
    expect(llm.log).toHaveLength(0);
    expect(streams.out()).toContain('Choose subsubcategories among: Kelly Criterion, Unit Sizing');
    expect(streams.out()).toContain('Language: English');
  });

  it('stores to GCS through the real client', async () => {
    const summary = (await generate(options({ count: 2, storage: { storage: 'gcs', apiEndpoint: gcs.url } }).opts)) as RunSummary;
    expect(summary.stored).toHaveLength(2);
    const objects = [...gcs.buckets.get('felt-test-dev')!.keys()].filter((k) => k.startsWith('articles/'));
    expect(objects).toHaveLength(2);
    gcs.resetLog();
    const rerun = (await generate(options({ count: 2, storage: { storage: 'gcs', apiEndpoint: gcs.url } }).opts)) as RunSummary;
    expect(rerun.alreadyDone).toBe(2);
    expect(gcs.count('object.upload')).toBe(0);
  });

  it('--batch submits missing slots once and --collect stores them, safely rerun', async () => {
    llm.batchPolls = 1;
    const { opts } = options({ count: 3 });
    const submitted = await submitBatch(opts);
    expect(submitted.batchId).toBeTruthy();
    expect(submitted.slots).toEqual([0, 1, 2]);
    const again = await submitBatch(options({ count: 3 }).opts);
    expect(again.batchId).toBeNull();
    const pending = await collectBatches(options().opts);
    expect(pending.batches[0]!.status).toBe('in_progress');
    expect(await bucketFiles()).toHaveLength(0);
    const collected = await collectBatches(options().opts);
    expect(collected.batches[0]!.status).toBe('collected');
    expect(await bucketFiles()).toHaveLength(3);
    const rerun = await collectBatches(options().opts);
    expect(rerun.batches).toHaveLength(0);
    expect(llm.log.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
    llm.batchPolls = 0;
  });

  it('names the problem without the key when the endpoint refuses it', async () => {
    llm.reply = () => ({ status: 401 });
    const summary = (await generate(options({ count: 1 }).opts)) as RunSummary;
    expect(summary.failed[0]!.reason).toMatch(/refused the API key/);
    expect(JSON.stringify(summary)).not.toContain(KEY);
  });
});
