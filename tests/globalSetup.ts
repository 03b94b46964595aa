/**
 * One temporary folder per test run: every test's temp folders (tempDir, mkdtemp in os.tmpdir()) and those of the
 * processes it starts go under it, and it is removed when the run ends. Tests used to leave their folders in /tmp,
 * thousands a run. FELT_KEEP_TEST_TMP=1 keeps it (its path is printed) to look at what a failed test left.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const before = process.env.TMPDIR;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'felt-vitest-'));
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
