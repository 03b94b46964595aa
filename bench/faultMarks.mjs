// Preloaded to see where a build touches new memory: FELT_TIMINGS=1 node --import ./bench/faultMarks.mjs bin/felt.js build …
// At each stage mark of the build thread (site/build/timings.ts prints one line a stage) it prints the minor page
// faults the process took since the mark before, and at exit the whole run's. On a machine where a fault costs 20 µs
// (`node bench/machine.mjs` says what it costs today), 50,000 faults are a second of wall time: the count is what
// a change to the build's memory can be judged by on any day, where its time moves with the machine.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const write = process.stderr.write.bind(process.stderr);
  const faults = () => process.resourceUsage().minorPageFault;
  let last = faults();
  process.stderr.write = (chunk, ...rest) => {
    const result = write(chunk, ...rest);
    if (/^felt timings: /.test(String(chunk))) {
      const now = faults();
      write(`felt faults: ${String(now - last).padStart(7)} since the mark before\n`);
      last = now;
    }
    return result;
  };
  process.on('exit', () => write(`felt faults: ${faults()} in all (the build's thread and every worker: one process)\n`));
}
