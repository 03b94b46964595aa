// How fast this machine is right now at the two things that move every build's wall time on it: starting a process,
// and touching memory the process has not touched before. `npm run bench` prints both beside its tables.
//
// Why: on this project's machine (a virtual machine) a page of fresh memory costs a page fault that the host serves
// slowly on some days. On 2026-11-29 a child that filled 400 MB of new Buffers took 2.2 s (104,890 minor faults,
// about 20 µs each), where refilling one 4 MB Buffer as often took 0.15 s; `node -e 0` took 120 ms. On such a day a
// tool pays for its peak memory in wall time: Hugo, which peaks at 1.4-1.5 GB at 10,000 articles, took 10.4 and
// 12.8 s (2026-11-28 and 29) for a build it makes in 4.6 s on a quick day, and felt's +20 rebuild at 100,000 (400 MB;
// 151,000 faults with nothing new) took 5-6 s against 1.8-2.5 s. A table is read against the figures printed with it.
//
//   node bench/machine.mjs          prints them alone
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { median, timed } from './timed.mjs';

const FRESH_MB = 400;
const CHUNK_MB = 4;

/** `node -e <code>`, three times: the median wall seconds and minor page faults. */
async function nodeRun(code, times = 3) {
  const runs = [];
  for (let i = 0; i < times; i++) runs.push(await timed(process.execPath, ['-e', code]));
  return { seconds: median(runs.map((r) => r.wall)), faults: median(runs.map((r) => r.minorFaults)) };
}

/**
 * The machine's state now: Node's start (median of five `node -e 0`), and the cost of fresh memory: a child that
 * fills FRESH_MB of new Buffers, less one that fills a single Buffer as many times (the same writes, no new pages),
 * median of three each.
 */
export async function machineState() {
  const start = await nodeRun('0', 5);
  const chunks = FRESH_MB / CHUNK_MB;
  const fresh = await nodeRun(`const a=[];for(let i=0;i<${chunks};i++)a.push(Buffer.alloc(${CHUNK_MB}<<20,1))`);
  const reused = await nodeRun(`const b=Buffer.alloc(${CHUNK_MB}<<20);for(let i=0;i<${chunks};i++)b.fill(i)`);
  const extraMs = (fresh.seconds - reused.seconds) * 1000;
  return { nodeStartMs: start.seconds * 1000, freshMsPer100MB: (extraMs * 100) / FRESH_MB, microsPerFault: (extraMs * 1000) / (fresh.faults - reused.faults) };
}

/** One line for a bench's output. */
export function describeMachine({ nodeStartMs, freshMsPer100MB, microsPerFault }) {
  return `node -e 0: ${nodeStartMs.toFixed(0)} ms; fresh memory: ${freshMsPer100MB.toFixed(0)} ms per 100 MB touched (${microsPerFault.toFixed(1)} µs a page fault)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchArgs('usage: node bench/machine.mjs   (no options: prints how fast this machine starts Node and touches fresh memory)');
  console.log(describeMachine(await machineState()));
}
