/**
 * One temporary folder per test run: every test's temp folders (tempDir, mkdtemp in os.tmpdir()) and those of the
 * processes it starts go under it, and it is removed when the run ends. Tests used to leave their folders in /tmp,
 * thousands a run. FELT_KEEP_TEST_TMP=1 keeps it (its path is printed) to look at what a failed test left.
 *
 * The folder is in memory (/dev/shm) where the machine has one with room to spare: the tests write, link and delete
 * hundreds of thousands of small files that no one reads after the run. A full run with them on the disk spent 7.0
 * minutes of system time in 932 s; the next, here, 5.9 minutes in 877 s. FELT_TEST_TMP names another parent folder.
 */
import { mkdtemp, rm, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureCompiled } from './support/cli.ts';

const MEMORY_FOLDER = '/dev/shm';
/** Room the run needs in memory to be put there: what the whole run writes at its peak, with a margin. */
const MEMORY_ROOM_BYTES = 8 * 1024 ** 3;

async function parentFolder(): Promise<string> {
  if (process.env.FELT_TEST_TMP) return process.env.FELT_TEST_TMP;
  const memory = await statfs(MEMORY_FOLDER).catch(() => undefined);
  return memory && memory.bavail * memory.bsize >= MEMORY_ROOM_BYTES ? MEMORY_FOLDER : os.tmpdir();
}

export default async function setup(): Promise<() => Promise<void>> {
  // The compiled CLI (lib/) brought up to date once, before any test runs, rather than by the first test that starts
  // it: felt's code version is read once per process (site/build/codeVersion.ts, from lib/ when it exists), so a
  // compile in the middle of a run left the builds made in a test worker with another version than the CLI's, and a
  // rebuild by the CLI after one in the worker rendered every page (tests/site/incremental.test.ts failed so after a
  // source was edited and `npx vitest run` was started without `npm run compile`; `npm test` compiles first).
  await ensureCompiled();
  const before = process.env.TMPDIR;
  const dir = await mkdtemp(path.join(await parentFolder(), 'felt-vitest-'));
  // Read by os.tmpdir() in the test workers and in every process they start with this environment.
  process.env.TMPDIR = dir;
  return async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (process.env.FELT_KEEP_TEST_TMP === '1') {
      console.log(`test files kept in ${dir}`);
      return;
    }
    // A folder still mounted or held by a process that outlived its test stays; the rest goes.
    await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  };
}
