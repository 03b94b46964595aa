/**
 * Issue 17, item 6: money under control. Every call of the fake endpoint
 * reports 1000 prompt and 800 completion tokens; at the fixture's prices
 * (0.15 and 0.6 USD per million) an answer costs $0.00063.
 */
import { describe, expect, it } from 'vitest';
import { collectBatches, submitBatch } from '../../../cli/generate/batch.ts';
import { generate, type RunSummary } from '../../../cli/generate/run.ts';
import { FeltError } from '../../../shared/errors.ts';
import { EXIT } from '../../../shared/exitCodes.ts';
import { makeFixture, siteSettings } from '../../helpers/fixtureSite.ts';
import { bucketFiles, felt, libraryOptions, setUpWorld } from './support.ts';

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
      /batch batch_\d+: 2 stored, 0 failed, 0 stored before; 2000 \+ 1600 tokens, about \$0\.0006 \(batch answers at 50% of the price\)/,
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
