/**
 * Issue 17, item 6: money under control. Every call of the fake endpoint
 * reports 1000 prompt and 800 completion tokens; at the fixture's prices
 * (0.15 and 0.6 USD per million) an answer costs $0.00063.
 */
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { collectBatches, submitBatch } from '../../../cli/generate/batch.ts';
import { neverConnected } from '../../../cli/generate/llm.ts';
import { generate, type RunSummary } from '../../../cli/generate/run.ts';
import { FeltError } from '../../../shared/errors.ts';
import { EXIT } from '../../../shared/exitCodes.ts';
import { makeFixture, siteSettings } from '../../support/fixtureSite.ts';
import { listenOnLoopback } from '../../support/loopback.ts';
import { bucketFiles, felt, feltWithEnv, KEY, libraryOptions, setUpWorld, closedPortUrl } from './support.ts';

const ANSWER_USD = (1000 * 0.15 + 800 * 0.6) / 1e6;
const world = setUpWorld();

describe('the budget', () => {
  it('--max-cost stops the run before it would pass the cap: one line, exit 2, the rest left for a rerun', async () => {
    const result = await felt(world, 'generate', '--locale', 'en_US', '--count', '5', '--concurrency', '1', '--max-cost', '0.0025');
    expect(result.code).toBe(EXIT.doneWithSkips);
    // Three answers cost $0.00189; a fourth would make $0.00252.
    expect(world.llm.chats).toHaveLength(3);
    expect(await bucketFiles(world)).toHaveLength(3);
    expect(result.stderr.split('\n').filter((l) => l.startsWith('felt: '))).toEqual([
      'felt: generate stopped before the budget of $0.0025 would be passed: $0.0019 spent, the next article may cost $0.0006; 2 articles not written, a rerun of the same command writes them',
    ]);
  });

  it('holds whatever usage an endpoint reports: none, negative counts or strings are counted from the sizes, and --max-cost stops the run', async () => {
    // Each used to count nothing (none), lower the spending (negative: all six written, "about $-0.4500") or be glued
    // together as text ("0100010001000 tokens, about $15481.9806").
    const hostile = [null, { prompt_tokens: -100000, completion_tokens: -100000 }, { prompt_tokens: '1000', completion_tokens: '800' }];
    for (const [i, usage] of hostile.entries()) {
      world.llm.chats.length = 0;
      world.llm.reply = () => ({ usage });
      // A run of its own each (its date): one run's articles are not the next one's "done before".
      const { opts } = libraryOptions(world, { count: 6, concurrency: 1, maxCostUsd: 0.0025, date: `2026-05-0${i + 1}` });
      const outcome = await generate(opts).then(
        (summary) => summary as RunSummary,
        (error: unknown) => error,
      );
      const label = JSON.stringify(usage);
      // The run stops at the budget: some written, not all six.
      expect(world.llm.chats.length, label).toBeGreaterThan(0);
      expect(world.llm.chats.length, label).toBeLessThan(6);
      const summary = outcome as RunSummary;
      expect(summary.stopped?.reason, label).toBe('budget');
      expect(summary.usage.unreportedRequests, label).toBe(world.llm.chats.length);
      expect(summary.usage.costUsd, label).toBeGreaterThan(0);
      expect(summary.usage.costUsd, label).toBeLessThanOrEqual(0.0025);
    }
  });

  it('generation.budget in site.json is the default cap, and calls in flight cannot overshoot it', async () => {
    await world.fixture.cleanup();
    world.fixture = await makeFixture({ settings: { generation: { ...siteSettings().generation, budget: 0.0025 } } });
    const summary = (await generate(libraryOptions(world, { count: 8, concurrency: 4 }).opts)) as RunSummary;
    expect(summary.stopped).toMatchObject({ reason: 'budget' });
    expect(summary.usage.costUsd!).toBeLessThanOrEqual(0.0025);
    expect(summary.stored.length).toBeGreaterThanOrEqual(2);
    expect(summary.stored.length + summary.notWritten).toBe(8);
  });
});

describe('the budget of a batch', () => {
  it('--batch --max-cost submits only the articles the budget covers at batch prices, exit 2; the next --batch submits the rest', async () => {
    const result = await felt(world, 'generate', '--locale', 'en_US', '--count', '6', '--date', '2026-04-01', '--batch', '--max-cost', '0.002', '--json');
    expect(result.code).toBe(EXIT.doneWithSkips);
    const submitted = JSON.parse(result.stdout) as { slots: number[]; overBudget: number; estimatedUsd: number };
    expect(submitted.slots.length).toBeGreaterThan(0);
    expect(submitted.slots.length + submitted.overBudget).toBe(6);
    expect(submitted.overBudget).toBeGreaterThan(0);
    expect(submitted.estimatedUsd).toBeLessThanOrEqual(0.002);
    const plain = await felt(world, 'generate', '--locale', 'en_US', '--count', '6', '--date', '2026-04-01', '--batch', '--max-cost', '0.002');
    expect(plain.stderr).toMatch(
      /^felt: batch: \d+ articles? left out, over the budget of \$0\.002; the next felt generate --batch of this run submits them$/m,
    );
    // Each budgeted --batch submitted as many; without a budget the rest goes in one batch.
    const rest = await submitBatch(libraryOptions(world, { count: 6 }).opts);
    expect(rest.slots.length).toBe(Math.max(0, 6 - 2 * submitted.slots.length));
  });
});

describe('the cost', () => {
  it('applies the Batch API discount, and --collect prints it', async () => {
    await submitBatch(libraryOptions(world, { count: 2 }).opts);
    const { opts, streams } = libraryOptions(world);
    const collected = await collectBatches(opts);
    const summary = collected.batches[0]!.summary!;
    expect(summary.usage.costUsd).toBeCloseTo(2 * ANSWER_USD * 0.5, 10);
    expect(streams.out()).toMatch(
      /batch batch_\d+: 2 stored, 0 skipped, 0 failed, 0 stored before; 2000 \+ 1600 tokens, about \$0\.0006 \(batch answers at 50% of the price\)/,
    );
  });

  it('counts failed and timed-out calls, and the prompt tokens a timed-out call may have used', async () => {
    let calls = 0;
    world.llm.reply = () => (++calls === 1 ? { delayMs: 700 } : calls === 2 ? { status: 500 } : undefined);
    const { opts } = libraryOptions(world, { count: 1, llm: { baseURL: world.llm.url, apiKey: 'k', timeoutMs: 400 } });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(1);
    expect(summary.usage).toMatchObject({ requests: 1, failedRequests: 2 });
    expect(summary.usage.estimatedPromptTokens).toBeGreaterThan(500);
    expect(summary.usage.costUsd!).toBeGreaterThan(ANSWER_USD);
  });

  // Port 6000 is one fetch refuses to call (a "bad port"): never connected, and retried as an unknown host would be.
  it('counts no prompt tokens for calls that never connected (a bad port), so they neither cost nor use up the budget', async () => {
    const { opts } = libraryOptions(world, {
      count: 2,
      concurrency: 1,
      maxCostUsd: 0.0015,
      llm: { baseURL: 'http://127.0.0.1:6000/v1', apiKey: KEY, maxRetries: 1 },
    });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toHaveLength(0);
    expect(summary.usage.failedRequests).toBeGreaterThanOrEqual(2);
    expect(summary.usage).toMatchObject({ requests: 0, unconnectedRequests: summary.usage.failedRequests, estimatedPromptTokens: 0, costUsd: 0 });
    // Both articles were tried: the refused calls of the first spent nothing of the $0.0001.
    expect(summary.stopped?.reason).not.toBe('budget');
    expect(summary.failed.map((f) => f.slot)).toEqual([0, 1]);
  });

  it('the run line says the failed calls could not connect, and counts no tokens or cost for them', async () => {
    const result = await feltWithEnv(world, { OPENAI_BASE_URL: await closedPortUrl() }, 'generate', '--locale', 'en_US', '--count', '1');
    expect(result.code).toBe(EXIT.failed);
    expect(result.stdout).toMatch(
      /^run 2026-\d\d-\d\d: 0 stored, 0 skipped, 0 failed, 0 done before; 0 requests \(and 1 failed call, 1 could not connect\), 0 \+ 0 tokens, about \$0\.0000$/m,
    );
    expect(result.stdout).not.toMatch(/prompt tokens counted/);
  });

  // The accept queue of a listener that never accepts is full: the next connection is not answered, and hangs.
  it('counts no prompt tokens for calls that timed out before they connected, and retries them as any timeout', async () => {
    const silent = await unansweredPort();
    try {
      const baseURL = `http://127.0.0.1:${silent.port}/v1`;
      const { opts } = libraryOptions(world, { count: 1, llm: { baseURL, apiKey: KEY, timeoutMs: 300, maxRetries: 1 } });
      const summary = (await generate(opts)) as RunSummary;
      expect(summary.usage).toMatchObject({ requests: 0, failedRequests: 2, unconnectedRequests: 2, estimatedPromptTokens: 0, retries: 1, costUsd: 0 });
      expect(summary.failed).toMatchObject([{ slot: 0, cause: 'provider', reason: `${baseURL}: Request timed out.` }]);
    } finally {
      await silent.close();
    }
  });

  it('still counts the prompt of a call whose connection dropped after the request was sent', async () => {
    const dropping = createServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const baseURL = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/v1`;
      const { opts } = libraryOptions(world, { count: 1, llm: { baseURL, apiKey: KEY, maxRetries: 0 } });
      const summary = (await generate(opts)) as RunSummary;
      expect(summary.usage).toMatchObject({ requests: 0, failedRequests: 1, unconnectedRequests: 0 });
      expect(summary.usage.estimatedPromptTokens).toBeGreaterThan(500);
    } finally {
      await new Promise<void>((resolve) => dropping.close(() => resolve()));
    }
  });

  // 200 and the headers, half the JSON body, then the connection drops: the SDK fails reading the body, and does not retry.
  it.each([
    { cut: 'before the length its headers gave', length: true, reason: /: answer cut off \(terminated\)$/ },
    { cut: 'with no length given, so the half reads as the whole body', length: false, reason: /: answer unreadable \(.*JSON.*\)$/ },
  ])('counts the prompt of a call whose answer was cut off after its headers came, $cut: a failed call, not a free one', async ({ length, reason }) => {
    const answer = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'x'.repeat(400) }, finish_reason: 'stop' }] });
    const head = ['HTTP/1.1 200 OK', 'Content-Type: application/json', length ? `Content-Length: ${answer.length}` : 'Connection: close'];
    const cutting = createHttpServer((request) => {
      request.resume();
      request.on('end', () => {
        const { socket } = request;
        socket.write(`${head.join('\r\n')}\r\n\r\n${answer.slice(0, answer.length / 2)}`, () => setTimeout(() => socket.destroy(), 20));
      });
    });
    const { port, close } = await listenOnLoopback(cutting);
    try {
      const baseURL = `http://127.0.0.1:${port}/v1`;
      const { opts } = libraryOptions(world, { count: 1, llm: { baseURL, apiKey: KEY, maxRetries: 2 } });
      const summary = (await generate(opts)) as RunSummary;
      // Counted once, as one that may have been billed; the SDK does not retry it.
      expect(summary.usage).toMatchObject({ requests: 0, failedRequests: 1, unconnectedRequests: 0, retries: 0 });
      expect(summary.usage.estimatedPromptTokens).toBeGreaterThan(500);
      expect(summary.usage.costUsd).toBeCloseTo((summary.usage.estimatedPromptTokens * 0.15) / 1e6, 12);
      expect(summary.failed).toMatchObject([{ slot: 0, cause: 'provider', reason: expect.stringMatching(reason) }]);
    } finally {
      await close();
    }
  });

  it('tells a connection never made (refused, unknown host, refused certificate) from one that failed after connecting', () => {
    const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });
    const systemError = (code: string, syscall: string) => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
    expect(neverConnected(fetchFailed(systemError('ECONNREFUSED', 'connect')))).toBe('ECONNREFUSED');
    expect(neverConnected(fetchFailed(systemError('ENOTFOUND', 'getaddrinfo')))).toBe('ENOTFOUND');
    expect(neverConnected(fetchFailed(systemError('ETIMEDOUT', 'connect')))).toBe('ETIMEDOUT');
    expect(neverConnected(fetchFailed(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' })))).toBe('CERT_HAS_EXPIRED');
    const everyAddress = Object.assign(new AggregateError([systemError('ECONNREFUSED', 'connect'), systemError('ENETUNREACH', 'connect')]), {
      code: 'ECONNREFUSED',
    });
    expect(neverConnected(fetchFailed(everyAddress))).toBe('ECONNREFUSED');
    expect(neverConnected(fetchFailed(new Error('bad port')))).toBe('bad port');
    expect(neverConnected(fetchFailed(systemError('ECONNRESET', 'read')))).toBeUndefined();
    expect(neverConnected(fetchFailed(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })))).toBeUndefined();
    expect(neverConnected(new DOMException('This operation was aborted', 'AbortError'))).toBeUndefined();
  });

  it('a direct run does not pay again for the articles of a batch not yet collected', async () => {
    world.llm.batchPolls = 5;
    await submitBatch(libraryOptions(world, { count: 3 }).opts);
    const chats = world.llm.chats.length;
    const error = await generate(libraryOptions(world, { count: 3 }).opts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeltError);
    expect((error as FeltError).code).toBe('BATCH_PENDING');
    expect((error as FeltError).message).toMatch(
      /run 2026-04-01: 3 articles of this run are in batch batch_\d+, not collected yet; writing them directly would pay for them twice/,
    );
    expect(world.llm.chats.length).toBe(chats);
    expect(await bucketFiles(world)).toHaveLength(0);
  });
});

/**
 * A loopback port whose connections are never answered: its listener (in a thread that then
 * blocks) never accepts, and two connections fill its accept queue (backlog 1), so the kernel
 * drops the handshake of the next one, which waits to connect until it gives up.
 */
async function unansweredPort(): Promise<{ port: number; close(): Promise<void> }> {
  const listener = new Worker(
    `const net = require('node:net');
    const server = net.createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      require('node:worker_threads').parentPort.postMessage(server.address().port);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    });`,
    { eval: true },
  );
  const port = await new Promise<number>((resolve) => listener.once('message', resolve));
  const fillers: Socket[] = [];
  let connected = true;
  // Until a connection is left waiting: the queue is full.
  while (connected && fillers.length < 8) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
    connected = await new Promise<boolean>((resolve) => {
      const wait = setTimeout(() => resolve(false), 300);
      socket.once('connect', () => (clearTimeout(wait), resolve(true)));
    });
  }
  if (connected) throw new Error(`port ${port} still accepts connections after ${fillers.length}: the test needs one that waits`);
  return {
    port,
    close: async () => {
      for (const socket of fillers) socket.destroy();
      await listener.terminate();
    },
  };
}
