/**
 * Issue 17, item 1: one bad article does not stop a night, and an outage
 * does not cost every slot its full retry schedule. Through the real `felt`
 * command (lib/: run `npm run compile` first) and the loopback endpoint.
 */
import { describe, expect, it } from 'vitest';
import { generate, type RunSummary } from '../../../cli/generate/run.ts';
import { EXIT } from '../../../shared/exitCodes.ts';
import { articleAnswer } from '../../support/articles.ts';
import { bucketFiles, felt, libraryOptions, slotOf, setUpWorld } from './support.ts';

const world = setUpWorld();

/** A Turkish answer the suffix rule refuses, whatever is asked. */
const badTurkish = (n: number) =>
  JSON.stringify({ ...articleAnswer('tr', n), body: `${articleAnswer('tr', n).body}\n\nBu kural önemlidir ve gerekmektedir.\n` });

describe('a failed article is skipped, the run finishes', () => {
  it('a locale whose answers are all bad ends with exit 2 and a report, while another locale is written', async () => {
    world.llm.reply = (call) => (call.language === 'tr' ? { content: badTurkish(call.n) } : undefined);
    const english = await felt(world, 'generate', '--locale', 'en_US', '--count', '2', '--attempts', '2');
    expect(english.code).toBe(EXIT.ok);
    expect(await bucketFiles(world, 'en_US')).toHaveLength(2);
    const turkish = await felt(world, 'generate', '--locale', 'tr_TR', '--count', '2', '--attempts', '2');
    expect(turkish.code).toBe(EXIT.doneWithSkips);
    const skipped = turkish.stderr.split('\n').filter((l) => l.startsWith('skipped: '));
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toMatch(
      /^skipped: tr_TR slot 1 \(\w+\/\w+, slug "article-tr-\d+-\w+"\): words ending in -tedir or -tadır are not allowed: gerekmektedir$/,
    );
    expect(turkish.stderr.split('\n').filter((l) => l.startsWith('felt:'))).toEqual([
      'felt: generate: 2 articles of 2 not written, 2 skipped (listed above); none was stored',
    ]);
    expect(turkish.stderr).not.toMatch(/\n\s+at /);
    expect(await bucketFiles(world, 'tr_TR')).toHaveLength(0);
  });

  it('writes the other articles of the run when one slot fails', async () => {
    world.llm.reply = (call) => (slotOf(call) === 2 ? { content: badTurkish(call.n) } : undefined);
    const result = await felt(world, 'generate', '--locale', 'tr_TR', '--count', '3', '--attempts', '2', '--json');
    expect(result.code).toBe(EXIT.doneWithSkips);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.stored.map((s) => s.slot)).toEqual([0, 2]);
    expect(summary.failed).toEqual([
      expect.objectContaining({ slot: 1, attempts: 2, slug: expect.stringMatching(/^article-tr-/), reason: expect.stringMatching(/-tedir/) }),
    ]);
    expect(await bucketFiles(world, 'tr_TR')).toHaveLength(2);
  });
});

describe('an answer refused and a call that failed, in one run', () => {
  it('are told apart: one skipped, one failed, in the lines, the summary and the last line', async () => {
    // Slot 2's answers break a rule (skipped: an answer was judged); slot 3's calls get a 500 every time (failed).
    world.llm.reply = (call) =>
      slotOf(call) === 2 ? { content: badTurkish(call.n) } : slotOf(call) === 3 ? { status: 500, headers: { 'retry-after-ms': '1' } } : undefined;
    const result = await felt(world, 'generate', '--locale', 'tr_TR', '--count', '3', '--attempts', '2', '--concurrency', '1');
    expect(result.code).toBe(EXIT.doneWithSkips);
    expect(result.stdout).toMatch(/^run \S+: 1 stored, 1 skipped, 1 failed, 0 done before;/m);
    const lines = result.stderr.split('\n');
    expect(lines.filter((l) => /^(skipped|failed): /.test(l))).toEqual([
      expect.stringMatching(/^skipped: tr_TR slot 2 .*-tedir/),
      expect.stringMatching(/^failed: tr_TR slot 3 .*500/),
    ]);
    expect(lines.filter((l) => l.startsWith('felt:'))).toEqual([
      'felt: generate: 2 articles of 3 not written, 1 skipped and 1 failed (listed above); the others are stored',
    ]);
  });
});

describe('a failed article of a batch is skipped at collection', () => {
  it('--collect stores the others, lists the skipped one and exits 2', async () => {
    world.llm.reply = (call) => (slotOf(call) === 2 ? { content: badTurkish(call.n) } : undefined);
    expect((await felt(world, 'generate', '--locale', 'tr_TR', '--count', '3', '--batch')).code).toBe(EXIT.ok);
    const collected = await felt(world, 'generate', '--collect', '--attempts', '1');
    expect(collected.code).toBe(EXIT.doneWithSkips);
    expect(collected.stderr).toMatch(/^skipped: tr_TR batch_\d+ slot 2 \(\w+\/\w+, slug "article-tr-\d+-\w+"\): words ending in -tedir/m);
    expect(collected.stderr).toContain('felt: collect: 1 article not written, 1 skipped (listed above); felt generate --collect asks them again');
    expect(await bucketFiles(world, 'tr_TR')).toHaveLength(2);
  });
});

describe('the circuit breaker', () => {
  it('stops the run after N consecutive provider failures, with one line', async () => {
    // A 500 that asks for a 1 ms wait: each call still makes its 6 attempts (5 SDK retries), quickly.
    world.llm.reply = () => ({ status: 500, headers: { 'retry-after-ms': '1' } });
    const result = await felt(world, 'generate', '--locale', 'en_US', '--count', '10', '--concurrency', '1', '--breaker', '2');
    expect(result.code).toBe(EXIT.failed);
    // Two calls of six attempts, not ten.
    expect(world.llm.chats).toHaveLength(12);
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('felt: '));
    expect(lines).toEqual([
      expect.stringMatching(
        /^felt: generate stopped after 2 consecutive provider failures \(the last: .*500 fake error 500\); 10 articles not written, a rerun of the same command writes them/,
      ),
    ]);
  });

  it('cancels the calls in flight and leaves every unwritten slot for a rerun', async () => {
    world.llm.reply = () => ({ status: 503, headers: { 'retry-after-ms': '1' } });
    const { opts } = libraryOptions(world, { count: 20, concurrency: 4, breakerLimit: 3, llm: { baseURL: world.llm.url, apiKey: 'k', maxRetries: 1 } });
    const started = Date.now();
    const summary = (await generate(opts)) as RunSummary;
    expect(summary.stopped).toMatchObject({ reason: 'breaker', message: expect.stringContaining('3 consecutive provider failures') });
    // Slots whose calls failed in the outage are not bad articles: all twenty are left for the rerun.
    expect(summary.failed).toEqual([]);
    expect(summary.notWritten).toBe(20);
    // At most the breaker's calls and those in flight, each with its retry: not 20 × 2.
    expect(world.llm.chats.length).toBeLessThanOrEqual((3 + 4) * 2);
    expect(Date.now() - started).toBeLessThan(5000);
    // The provider is back: the rerun writes them all.
    world.llm.reply = () => undefined;
    const rerun = (await generate(libraryOptions(world, { count: 20, concurrency: 4 }).opts)) as RunSummary;
    expect(rerun.stored.length + rerun.alreadyDone).toBe(20);
  });
});
