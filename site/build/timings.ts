/**
 * Phase timings for profiling a build: FELT_TIMINGS=1 prints how long each
 * stage took to stderr. Off by default, when it costs one comparison per mark.
 */
const enabled = Boolean(process.env.FELT_TIMINGS);
const origin = performance.now();
let last = origin;

export function mark(phase: string): void {
  if (!enabled) return;
  const now = performance.now();
  process.stderr.write(`felt timings: ${phase.padEnd(22)} ${(now - last).toFixed(0).padStart(6)} ms  (at ${(now - origin).toFixed(0)} ms)\n`);
  last = now;
}
