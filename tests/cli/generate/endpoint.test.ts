/**
 * An endpoint that is not there, or stops answering halfway: a refused
 * connection ends the run at once with one line naming the endpoint (nothing
 * listens there; the SDK's retries would cost every article 13 s), and felt's
 * --timeout covers reading the whole answer, as Ctrl-C does, not only the
 * wait for its headers.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { listenOnLoopback } from '../../support/loopback.ts';
import { describe, expect, it } from 'vitest';
import { generate, type RunSummary } from '../../../cli/generate/run.ts';
import { EXIT } from '../../../shared/exitCodes.ts';
import { bucketFiles, feltWithEnv, KEY, libraryOptions, setUpWorld, closedPortUrl } from './support.ts';

const world = setUpWorld();

describe('a refused connection', () => {
  it('stops the run at its first refusal with one line naming the endpoint and the fix: no retries, nothing charged or written', async () => {
    const baseURL = await closedPortUrl();
    const started = Date.now();
    const result = await feltWithEnv(world, { OPENAI_BASE_URL: baseURL }, 'generate', '--locale', 'en_US', '--count', '3');
    // The SDK's five retries took about 13 s for every article.
    expect(Date.now() - started).toBeLessThan(6000);
    expect(result.code).toBe(EXIT.failed);
    expect(result.stderr).not.toMatch(/retrying/);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('felt: '))).toEqual([
      `felt: generate stopped: ${baseURL} refused the connection: no model server is listening there; 3 articles not written. start the model server, or point OPENAI_BASE_URL at the one that runs; then run the same command again`,
    ]);
    expect(result.stdout).toMatch(
      /^run \S+: 0 stored, 0 skipped, 0 failed, 0 done before; 0 requests \(and ([1-3]) failed calls?, \1 could not connect\), 0 \+ 0 tokens, about \$0\.0000$/m,
    );
    expect(await bucketFiles(world)).toEqual([]);
  });

  it('is not retried by the library either, and leaves every slot for the rerun', async () => {
    const { opts } = libraryOptions(world, { count: 3, concurrency: 1, llm: { baseURL: await closedPortUrl(), apiKey: KEY } });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stopped).toMatchObject({ reason: 'unreachable', message: expect.stringContaining('refused the connection') });
    expect(summary.usage).toMatchObject({ requests: 0, failedRequests: 1, unconnectedRequests: 1, retries: 0, estimatedPromptTokens: 0, costUsd: 0 });
    expect(summary).toMatchObject({ stored: [], failed: [], notWritten: 3 });
  });
});

describe('an answer that stalls after its headers', () => {
  it('is given up after --timeout with the usual timeout message, counted as a call that was sent', { timeout: 30_000 }, async () => {
    const stalling = await stallingServer();
    try {
      const { opts } = libraryOptions(world, { count: 1, llm: { baseURL: stalling.url, apiKey: KEY, timeoutMs: 500, maxRetries: 2 } });
      const started = Date.now();
      const summary = (await generate(opts)) as RunSummary;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(stalling.requests).toBe(1);
      expect(summary.failed).toMatchObject([{ slot: 0, cause: 'provider', reason: `${stalling.url}: Request timed out.` }]);
      expect(summary.usage).toMatchObject({ requests: 0, failedRequests: 1, unconnectedRequests: 0, retries: 0 });
      expect(summary.usage.estimatedPromptTokens).toBeGreaterThan(500);
    } finally {
      await stalling.close();
    }
  });

  it('felt generate --timeout 1 gives up on it and says the request timed out', { timeout: 60_000 }, async () => {
    const stalling = await stallingServer();
    try {
      const result = await feltWithEnv(world, { OPENAI_BASE_URL: stalling.url }, 'generate', '--locale', 'en_US', '--count', '1', '--timeout', '1');
      expect(result.code).toBe(EXIT.failed);
      expect(result.stderr).toMatch(new RegExp(`^failed: slot 1: ${stalling.url.replace(/[.]/g, '\\.')}: Request timed out\\. \\(en_US `, 'm'));
      expect(await bucketFiles(world)).toEqual([]);
    } finally {
      await stalling.close();
    }
  });

  it('is stopped by Ctrl-C (the run signal) while its body is read', { timeout: 30_000 }, async () => {
    const interrupt = new AbortController();
    const stalling = await stallingServer(() => setTimeout(() => interrupt.abort(), 100));
    try {
      const { opts } = libraryOptions(world, { count: 1, signal: interrupt.signal, llm: { baseURL: stalling.url, apiKey: KEY, timeoutMs: 120_000 } });
      const started = Date.now();
      const summary = (await generate(opts)) as RunSummary;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(summary.interrupted).toBe(true);
      expect(await bucketFiles(world)).toEqual([]);
    } finally {
      await stalling.close();
    }
  });
});

/**
 * A chat endpoint that answers 200 with its headers (the whole answer's Content-Length) and half
 * of the JSON body, then sends nothing more and keeps the connection open; `onStall` is told when
 * the half has gone.
 */
async function stallingServer(onStall: () => void = () => undefined): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const answer = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'x'.repeat(4000) }, finish_reason: 'stop' }] });
  const state = { url: '', requests: 0, close: async () => {} };
  const server: Server = createHttpServer((request, response) => {
    state.requests++;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(answer)) });
      response.write(answer.slice(0, answer.length / 2), () => onStall());
    });
  });
  const { port, close } = await listenOnLoopback(server);
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = close;
  return state;
}

describe('an answer larger than the limit', () => {
  it('is dropped as it arrives (README, "Limits": 4 MB), the slot failed with that reason, nothing stored', async () => {
    // 6 MB of title: the endpoint's whole answer, where an article's is about 20 KB.
    world.llm.reply = () => ({ content: JSON.stringify({ title: 'x'.repeat(6 * 1024 * 1024) }) });
    const { opts } = libraryOptions(world, { count: 1, attempts: 1, concurrency: 1 });
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stored).toEqual([]);
    expect(summary.failed).toEqual([
      expect.objectContaining({ slot: 0, reason: expect.stringContaining('answer larger than 4 MB, the limit (see README, "Limits")') }),
    ]);
    expect(await bucketFiles(world)).toEqual([]);
  });
});
