// How fast this machine is right now at the three things that move every build's wall time on it: starting a
// process, touching memory the process has not touched before, and making new folders and files. `npm run bench`
// prints them beside its tables.
//
// Why: on this project's machine (a virtual machine) a page of fresh memory costs a page fault that the host serves
// slowly on some days. On 2026-11-29 a child that filled 400 MB of new Buffers took 2.2 s (104,890 minor faults,
// about 20 µs each), where refilling one 4 MB Buffer as often took 0.15 s; `node -e 0` took 120 ms. On such a day a
// tool pays for its peak memory in wall time: Hugo, which peaks at 1.4-1.5 GB at 10,000 articles, took 10.4 and
// 12.8 s (2026-11-28 and 29) for a build it makes in 4.6 s on a quick day, and felt's +20 rebuild at 100,000 (400 MB;
// 151,000 faults with nothing new) took 5-6 s against 1.8-2.5 s. A table is read against the figures printed with it.
//
// The folders: this disk's ext4 has no journal, and without one ext4 does not reuse an inode deleted in the last
// minutes, looking each free one up to know; for minutes after gigabytes are deleted a new file costs several times
// as much (README, "Right after a mass deletion"). On 2026-11-30 a bench started 40 s after several GB of build
// outputs were deleted timed felt at 4.1 s for 1,000 articles and 7.9-18.4 s for 10,000, Hugo at 1.1-1.4 and
// 4.1-10.2 s, where the run before took 1.0-1.1, 3.9-4.2, 0.4 and 3.8-4.8 s. The figure printed says so before
// anyone reads the table.
//
//   node bench/machine.mjs [folder]   prints them alone (the folders are made in a new folder inside `folder`,
//                                     the system's temporary folder by default, and kept: see below)
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { median, timed } from './timed.mjs';

const FRESH_MB = 400;
const CHUNK_MB = 4;
/** Folders a probe makes, each with a small file, as a build makes a page (three probes: 12,000 inodes, 12 MB). */
const FOLDERS = 2000;

/** `node -e <code>`, three times: the median wall seconds and minor page faults. */
async function nodeRun(code, times = 3) {
  const runs = [];
  for (let i = 0; i < times; i++) runs.push(await timed(process.execPath, ['-e', code]));
  return { seconds: median(runs.map((r) => r.wall)), faults: median(runs.map((r) => r.minorFaults)) };
}

/**
 * The machine's state now: Node's start (median of five `node -e 0`); the cost of fresh memory: a child that fills
 * FRESH_MB of new Buffers, less one that fills a single Buffer as many times (the same writes, no new pages), median
 * of three each; and the cost of a new folder with a file in it: a child that makes FOLDERS of them in `probeDir` (a
 * new folder on the disk the builds write to, made here), less Node's start, median of three. The folders are left
 * for the caller to remove with its own: removed at once, they would slow the next probe's (see above).
 */
export async function machineState(probeDir) {
  const start = await nodeRun('0', 5);
  const chunks = FRESH_MB / CHUNK_MB;
  const fresh = await nodeRun(`const a=[];for(let i=0;i<${chunks};i++)a.push(Buffer.alloc(${CHUNK_MB}<<20,1))`);
  const reused = await nodeRun(`const b=Buffer.alloc(${CHUNK_MB}<<20);for(let i=0;i<${chunks};i++)b.fill(i)`);
  const extraMs = (fresh.seconds - reused.seconds) * 1000;
  mkdirSync(probeDir, { recursive: true });
  // Each run makes its folders in a new folder of its own inside probeDir.
  const folders = await nodeRun(
    `const fs=require('fs');const d=fs.mkdtempSync(${JSON.stringify(probeDir + path.sep)});` +
      `for(let i=0;i<${FOLDERS};i++){fs.mkdirSync(d+'/'+i);fs.writeFileSync(d+'/'+i+'/index.html','x'.repeat(2048))}`,
  );
  return {
    nodeStartMs: start.seconds * 1000,
    freshMsPer100MB: (extraMs * 100) / FRESH_MB,
    microsPerFault: (extraMs * 1000) / (fresh.faults - reused.faults),
    microsPerFolder: (Math.max(0, folders.seconds - start.seconds) * 1e6) / FOLDERS,
  };
}

/** One line for a bench's output. */
export function describeMachine({ nodeStartMs, freshMsPer100MB, microsPerFault, microsPerFolder }) {
  return (
    `node -e 0: ${nodeStartMs.toFixed(0)} ms; fresh memory: ${freshMsPer100MB.toFixed(0)} ms per 100 MB touched ` +
    `(${microsPerFault.toFixed(1)} µs a page fault); a new folder and file: ${microsPerFolder.toFixed(0)} µs`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { positionals } = benchArgs(
    'usage: node bench/machine.mjs [folder]   (prints how fast this machine starts Node, touches fresh memory, and makes folders in a new folder inside `folder`)',
    { allowPositionals: true },
  );
  // The folder is made if missing, as `--work` is by the benches.
  const parent = path.resolve(positionals[0] ?? os.tmpdir());
  mkdirSync(parent, { recursive: true });
  const probe = mkdtempSync(path.join(parent, 'felt-machine-'));
  console.log(describeMachine(await machineState(probe)));
  // Kept: removing its 12,000 inodes here made the next minutes' builds (and probes) slow on this disk. Run at
  // 02:27 UTC on 2026-11-30 just before `npm run bench`, the removal made the bench's own probe read 290 µs where
  // this one had read 45 µs a minute before.
  console.log(`the probe's folders are kept in ${probe} (12 MB): deleting them slows new files on this disk for minutes, so delete them after measuring`);
}
