/**
 * Issue 17, item 7 (generate): reruns finish the failed run, killed runs
 * leave nothing behind for long, and one bad batch record is named and
 * skipped instead of ending every --batch and --collect.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectBatches, submitBatch } from '../../../cli/generate/batch.ts';
import { generate, type RunSummary } from '../../../cli/generate/run.ts';
import { bucketFiles, devBucketDir, libraryOptions, slotOf, setUpWorld } from './support.ts';

const world = setUpWorld();

describe('the run id', () => {
  it('is the night: a rerun after midnight with --run-id finishes the failed slot only', async () => {
    world.llm.reply = (call) => (slotOf(call) === 2 ? { content: 'not json' } : undefined);
    const night = (await generate(libraryOptions(world, { count: 3, attempts: 1, date: '2026-04-01' }).opts)) as RunSummary;
    expect(night.runId).toBe('2026-04-01');
    expect(night.failed.map((f) => f.slot)).toEqual([1]);
    world.llm.reply = () => undefined;
    const before = world.llm.chats.length;
    const rerun = (await generate(libraryOptions(world, { count: 3, date: '2026-04-02', runId: '2026-04-01' }).opts)) as RunSummary;
    expect(rerun).toMatchObject({ runId: '2026-04-01', alreadyDone: 2 });
    expect(rerun.stored.map((s) => s.slot)).toEqual([1]);
    expect(world.llm.chats.length - before).toBe(1);
  });

  it('does not depend on the count: a rerun with a larger count adds to the same run', async () => {
    await generate(libraryOptions(world, { count: 2 }).opts);
    const before = world.llm.chats.length;
    const more = (await generate(libraryOptions(world, { count: 3 }).opts)) as RunSummary;
    expect(more.alreadyDone).toBe(2);
    expect(world.llm.chats.length - before).toBe(1);
    expect(await bucketFiles(world)).toHaveLength(3);
  });
});

describe('leftovers of killed runs', () => {
  it('temporary files and orphan metadata sidecars are removed by the next run', async () => {
    const folder = path.join(devBucketDir(world), 'articles', 'en_US');
    const metaFolder = path.join(world.fixture.root, '.buckets', '.meta', 'felt-test-dev', 'articles', 'en_US');
    await mkdir(folder, { recursive: true });
    await mkdir(metaFolder, { recursive: true });
    // A process id no machine runs (above the kernel's maximum), as a writer killed mid-write leaves them.
    await writeFile(path.join(folder, '.felt-tmp-99999999-0a1b2c3d4e5f-killed.md.tmp'), 'half an article');
    await writeFile(path.join(metaFolder, '.felt-tmp-99999999-0a1b2c3d4e5f-killed.md.json.tmp'), '{');
    await writeFile(path.join(metaFolder, 'killed.md.json'), JSON.stringify({ name: 'articles/en_US/killed.md', metadata: {} }));
    const { opts, streams } = libraryOptions(world, { count: 1 });
    await generate(opts);
    expect((await readdir(folder)).filter((n) => n.startsWith('.felt-tmp-'))).toEqual([]);
    expect((await readdir(metaFolder)).sort()).toEqual((await bucketFiles(world)).map((n) => `${n}.json`));
    expect(streams.err()).toMatch(/removed articles\/en_US\/\.felt-tmp-99999999-0a1b2c3d4e5f-killed\.md\.tmp in \S+felt-test-dev, left by a killed run/);
    expect(streams.err()).toMatch(/removed \.meta\/articles\/en_US\/killed\.md\.json in \S+felt-test-dev, left by a killed run/);
  });
});

describe('batch records', () => {
  it('one corrupt batches/*.json is named and skipped by --batch and --collect', async () => {
    await mkdir(path.join(devBucketDir(world), 'batches'), { recursive: true });
    await writeFile(path.join(devBucketDir(world), 'batches', 'batch_cut.json'), '{"batchId": "batch_cut", "inputF');
    const submit = libraryOptions(world, { count: 2 });
    const submitted = await submitBatch(submit.opts);
    expect(submitted.batchId).toBeTruthy();
    expect(submit.streams.err()).toMatch(/skipped \S+\/batches\/batch_cut\.json: not a batch record \(.*JSON.*\); delete it, or submit its batch again/);
    const collect = libraryOptions(world);
    const collected = await collectBatches(collect.opts);
    expect(collected.batches.map((b) => b.status)).toEqual(['collected']);
    expect(collect.streams.err()).toContain('batches/batch_cut.json: not a batch record');
    expect(await bucketFiles(world)).toHaveLength(2);
  });
});
