/**
 * Phase timings for profiling a build: FELT_TIMINGS=1 prints how long each
 * stage took to stderr. Off by default, when it costs one comparison per mark.
 * Counted from the process's start (performance.now()'s origin), not from
 * this module's loading: the first stage then holds Node's start and the
 * modules the build loaded, a third of a cold 1,000-article build's time to
 * its first page.
 */
const enabled = Boolean(process.env.FELT_TIMINGS);
const origin = 0;
let last = origin;

export function mark(phase: string): void {
  if (!enabled) return;
  const now = performance.now();
  process.stderr.write(`felt timings: ${phase.padEnd(22)} ${(now - last).toFixed(0).padStart(6)} ms  (at ${(now - origin).toFixed(0)} ms)\n`);
  last = now;
}
