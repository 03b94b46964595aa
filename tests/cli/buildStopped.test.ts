/**
 * Ctrl-C (SIGINT) or a CI job's cancel (SIGTERM) stops `felt build` at once, as a kill would, and one line says
 * which site is served: before, the build ended without a word (exit 130, a progress bar left half drawn). The build
 * is stopped (SIGSTOP, FELT_STOP_AT in site/build/crashPoints.ts) once its output folder is prepared, sent the
 * signal, and let go on; the signal is heard at the build's next turn of its event loop.
 */
import { readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import type { CrashPoint } from '../../site/build/crashPoints.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { STACK_TRACE, runFelt, runFeltStoppedAt } from '../support/cli.ts';

/** `felt build` run until it stops itself at `point`, then sent `signal` and let go on: what it printed and how it ended. */
function stoppedAt(content: string, out: string, point: CrashPoint, signal: NodeJS.Signals) {
  // --no-incremental: a rebuild of this small site with nothing changed would finish without a turn of its event loop.
  return runFeltStoppedAt(['build', '--content', content, '--out', out, '--no-incremental'], point, (child) => void child.kill(signal), {
    timeoutMs: 120_000,
  });
}

describe.runIf(process.platform === 'linux')('felt build stopped by a signal', () => {
  it('says in one line that dist/ still serves the previous build (SIGINT, exit 130), and the next build finishes', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir('felt-stopped-'), 'dist');
    const first = await runFelt(['build', '--content', content, '--out', out], { timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const served = await readlink(out);
    const home = await readFile(path.join(out, 'index.html'), 'utf8');

    const stopped = await stoppedAt(content, out, 'prepared', 'SIGINT');
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).not.toMatch(STACK_TRACE);
    expect(stopped.stderr.trim().split('\n')).toEqual([
      `felt: build stopped by SIGINT; ${out} still serves the previous build. run felt build again: it clears what this one left`,
    ]);
    expect(await readlink(out)).toBe(served);
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toBe(home);

    const next = await runFelt(['build', '--content', content, '--out', out], { timeoutMs: 120_000 });
    expect(next.code, next.stderr).toBe(0);
  }, 240_000);

  it('says so when nothing is served yet (SIGTERM, a CI job cancelled: exit 143)', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir('felt-stopped-'), 'dist');
    const stopped = await stoppedAt(content, out, 'prepared', 'SIGTERM');
    expect(stopped.code).toBe(143);
    expect(stopped.stderr.trim()).toBe(`felt: build stopped by SIGTERM; nothing is served from ${out} yet. run felt build again: it clears what this one left`);
    const next = await runFelt(['build', '--content', content, '--out', out], { timeoutMs: 120_000 });
    expect(next.code, next.stderr).toBe(0);
  }, 240_000);

  it('leaves no handler behind in a process that runs the CLI in-process (it printed its line when that process ended)', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const out = path.join(await tempDir('felt-stopped-'), 'dist');
    const content = await fixtureCopy();
    // What the builds print is not the point here.
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await main(['node', 'felt', 'build', '--content', content, '--out', out, '--json'])).toBe(0);
      expect(await main(['node', 'felt', 'build', '--content', '/no/such/content', '--out', out])).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  }, 120_000);
});
