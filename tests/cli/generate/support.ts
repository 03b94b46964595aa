/**
 * What the generate tests share: the loopback OpenAI-compatible and GCS
 * servers, a fixture project per test, library options that print into
 * buffers, the real `felt` command (bin/felt.js, lib/: run `npm run compile`
 * first) pointed at the fake endpoint, and the local dev bucket's files.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { GenerateOptions } from '../../../cli/generate/run.ts';
import { createReporter } from '../../../cli/report.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { captureStreams, makeFixture, type Fixture } from '../../support/fixtureSite.ts';
import { closedLoopbackPort } from '../../support/loopback.ts';

export const KEY = 'sk-test-secret-key-0123456789';
const FELT = new URL('../../../bin/felt.js', import.meta.url).pathname;
const run = promisify(execFile);

export interface World {
  llm: FakeOpenAi;
  gcs: FakeGcs;
  fixture: Fixture;
}

/** Registers the hooks; the returned object holds the servers and this test's fixture. */
export function setUpWorld(fixtureOptions: () => Parameters<typeof makeFixture>[0] = () => ({})): World {
  // Several tests start the felt command two or three times: on a shared, loaded machine that can take more than the default minute.
  vi.setConfig({ testTimeout: 180_000 });
  const world = {} as World;
  beforeAll(async () => {
    world.llm = await startFakeOpenAi();
    world.gcs = await startFakeGcs();
    process.env.OPENAI_API_KEY = KEY;
  });
  afterAll(async () => {
    await world.llm.close();
    await world.gcs.close();
  });
  beforeEach(async () => {
    world.fixture = await makeFixture(fixtureOptions());
    world.llm.reply = () => undefined;
    world.llm.delayMs = 0;
    world.llm.batchPolls = 0;
    world.llm.chats.length = 0;
    world.llm.log.length = 0;
  });
  afterEach(() => world.fixture.cleanup());
  return world;
}

export function libraryOptions(world: World, extra: Partial<GenerateOptions> = {}) {
  const streams = captureStreams();
  const opts: GenerateOptions = {
    contentDir: world.fixture.contentDir,
    locale: 'en_US',
    count: 3,
    concurrency: 3,
    date: '2026-04-01',
    llm: { baseURL: world.llm.url, apiKey: KEY, timeoutMs: 5000 },
    reporter: createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false }),
    ...extra,
  };
  return { opts, streams };
}

/** `felt generate …` in the fixture, against the fake endpoint. */
export async function felt(world: World, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return feltWithEnv(world, {}, ...args);
}

/** The same, with environment variables of the test's own (OPENAI_BASE_URL naming another endpoint). */
export async function feltWithEnv(
  world: World,
  extraEnv: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, NO_COLOR: '1', OPENAI_BASE_URL: world.llm.url, OPENAI_API_KEY: KEY, ...extraEnv };
  try {
    const { stdout, stderr } = await run(process.execPath, [FELT, ...args, '--content', world.fixture.contentDir], { cwd: world.fixture.root, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

export function devBucketDir(world: World): string {
  return path.join(world.fixture.root, '.buckets', 'felt-test-dev');
}

export async function bucketFiles(world: World, locale = 'en_US'): Promise<string[]> {
  return (await readdir(path.join(devBucketDir(world), 'articles', locale)).catch(() => [])).sort();
}

/** The metadata the local bucket keeps beside an object. */
export async function objectMetadata(world: World, object: string): Promise<Record<string, string>> {
  const sidecar = path.join(world.fixture.root, '.buckets', '.meta', 'felt-test-dev', `${object}.json`);
  return (JSON.parse(await readFile(sidecar, 'utf8')) as { metadata: Record<string, string> }).metadata;
}

/** The slot number a request is for ("Write article 2 of 3"), 1-based. */
export function slotOf(call: { body: { messages: { role: string; content: string }[] } }): number {
  return Number(/Write article (\d+) of/.exec(call.body.messages[1]?.content ?? '')?.[1]);
}

/** A loopback address nothing listens on: a connection there is refused. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedLoopbackPort()}/v1`;
}
