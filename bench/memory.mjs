// Usage: node bench/memory.mjs [--sizes 10000,50000,100000,200000] [--builds peak,heap] [--snapshot pages@50000] [--search-index] [--work /tmp/x] [--keep]
// The cold build's memory as the site grows: for each size, a fresh corpus (bench/corpus.mjs) and cold builds exactly
// as `npm run bench` runs felt (no dist, no .felt-cache, --no-incremental), one build at a time. A `peak` build runs
// under /usr/bin/time: wall, user + system CPU, peak resident memory (all threads), the load beside them. A `heap`
// build runs under bench/memoryMarks.mjs: the build thread's live heap after a full collection at each stage mark,
// and the most any full collection left alive; --snapshot <stage>@<size> also writes a heap snapshot there (summarise it
// with bench/heapSummary.mjs). --search-index measures what the search index holds at once (bench/memory/
// searchIndexHeap.ts), which no stage mark sees. Then bytes an article between sizes. Corpus and output go after each size unless --keep.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { writeCorpus } from './corpus.mjs';
import { freezeFelt } from './frozenFelt.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `usage: node bench/memory.mjs [--sizes 10000,50000,100000,200000] [--builds peak,heap] [--snapshot <stage>@<size>] [--search-index] [--work <folder>] [--keep]

  --sizes         article counts to build, comma-separated (default 10000,50000,100000,200000)
  --builds        the cold builds for each size, comma-separated (default peak): peak under /usr/bin/time, heap under bench/memoryMarks.mjs
  --snapshot      a heap snapshot at that stage mark of the heap build at that size (summarise it with bench/heapSummary.mjs)
  --search-index  also measure what the search index holds at once, for each size
  --work          the folder for corpora and outputs (default: felt-memory in the system's temporary folder)
  --keep          keep each size's corpus and output (deleted after each size otherwise)`;
const { values } = benchArgs(USAGE, {
  options: {
    sizes: { type: 'string', default: '10000,50000,100000,200000' },
    builds: { type: 'string', default: 'peak' },
    snapshot: { type: 'string' },
    work: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'search-index': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);
const builds = values.builds.split(',');
const work = values.work ?? path.join(os.tmpdir(), 'felt-memory');
const MB = 2 ** 20;
const load = () => os.loadavg()[0].toFixed(1);

/** One cold build under /usr/bin/time; with `heap`, under the stage-mark preload. */
function coldBuild(dir, heap, n) {
  const nodeArgs = heap ? ['--expose-gc', '--import', path.join(ROOT, 'bench', 'memoryMarks.mjs')] : [];
  const args = ['-f', 'MEMORY %e %U %S %M', process.execPath, ...nodeArgs, FELT, 'build', '--content', path.join(dir, 'felt', 'content')];
  args.push('--out', path.join(dir, 'felt', 'dist'), '--no-incremental');
  const env = { ...process.env, ...(heap ? { FELT_TIMINGS: '1' } : {}) };
  const [snapshotStage, snapshotSize] = (values.snapshot ?? '').split('@');
  if (heap && snapshotStage && Number(snapshotSize) === n) Object.assign(env, { FELT_HEAP_SNAPSHOT: snapshotStage, FELT_HEAP_SNAPSHOT_DIR: work });
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const m = /MEMORY ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !m) return reject(new Error(`felt build failed (${code}):\n${stderr.slice(-2000)}`));
      const stages = [...stderr.matchAll(/^felt heap: (.*)\|(\d+)\|(\d+)$/gm)].map(([, stage, live, external]) => ({
        stage,
        live: +live,
        external: +external,
      }));
      const [wall, user, system, peakKB] = m.slice(1).map(Number);
      resolve({ wall, user, system, peakMB: peakKB / 1024, stages, snapshot: /^felt heap: snapshot (.*)$/m.exec(stderr)?.[1] });
    });
  });
}

/** The search index's live heap on this corpus, in a child with --expose-gc (bench/memory/searchIndexHeap.ts). */
function searchIndexHeap(content) {
  const script = `import { withTypeScript } from ${JSON.stringify(path.join(ROOT, 'scripts', 'withTypeScript.mjs'))};
    const r = await withTypeScript('bench/memory/searchIndexHeap.ts', (m) => m.searchIndexHeap(${JSON.stringify(content)}));
    console.log(JSON.stringify(r));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--max-semi-space-size=4', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout.trim().split('\n').pop())) : reject(new Error(`search index heap failed (${code})`))));
  });
}

async function clean(dir) {
  for (const sub of ['dist', 'dist.releases', '.felt-cache']) await rm(path.join(dir, 'felt', sub), { recursive: true, force: true });
}

// Every size is built by this copy of felt, whatever a test run compiles into lib/ meanwhile.
const FELT = await freezeFelt(work);
const rows = [];
for (const n of sizes) {
  const dir = path.join(work, String(n));
  await rm(dir, { recursive: true, force: true });
  await writeCorpus(path.join(dir, 'felt', 'content'), n);
  const row = { n };
  if (builds.includes('peak')) {
    await clean(dir);
    const before = load();
    Object.assign(row, await coldBuild(dir, false, n), { load: `${before}–${load()}` });
    console.log(`${n}: ${row.peakMB.toFixed(0)} MB, ${row.wall} s, ${(row.user + row.system).toFixed(1)} s CPU, load ${row.load}`);
  }
  if (builds.includes('heap')) {
    await clean(dir);
    const heap = await coldBuild(dir, true, n);
    row.stages = heap.stages;
    for (const s of heap.stages)
      console.log(`   ${n} live ${s.stage.padEnd(40).slice(0, 40)} ${(s.live / MB).toFixed(1)} MB (+${(s.external / MB).toFixed(1)} MB external)`);
    if (heap.snapshot) console.log(`   snapshot: ${heap.snapshot}`);
  }
  if (values['search-index']) {
    row.search = await searchIndexHeap(path.join(dir, 'felt', 'content'));
    const { before, planned, peak, fileChars, files } = row.search;
    const mb = (bytes) => (bytes / MB).toFixed(1);
    console.log(
      `   ${n} search index: ${mb(planned - before)} MB alive once made, ${mb(peak - before)} MB at most while made, ${files} files, ${mb(fileChars)} M characters`,
    );
  }
  rows.push(row);
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}

if (!values.keep) await rm(path.join(work, 'felt-code'), { recursive: true, force: true });

const stageName = (stage) => stage.split(' (')[0];
if (builds.includes('peak')) {
  console.log('\n| articles | peak MB | wall s | user + sys s | load (1 min, before–after) |\n|---:|---:|---:|---:|---|');
  for (const r of rows)
    console.log(`| ${r.n.toLocaleString('en')} | ${r.peakMB.toFixed(0)} | ${r.wall.toFixed(1)} | ${r.user.toFixed(1)} + ${r.system.toFixed(1)} | ${r.load} |`);
}
for (let i = 1; i < rows.length; i++) {
  const [a, b] = [rows[i - 1], rows[i]];
  const per = (x, y) => Math.round((y - x) / (b.n - a.n));
  console.log(`\n${a.n.toLocaleString('en')} → ${b.n.toLocaleString('en')} articles, bytes an article:`);
  if (a.peakMB && b.peakMB) console.log(`   peak resident ${per(a.peakMB * MB, b.peakMB * MB)}`);
  if (a.search && b.search) {
    const { search: x } = a;
    const { search: y } = b;
    console.log(`   live search index, made ${per(x.planned - x.before, y.planned - y.before)}, at most ${per(x.peak - x.before, y.peak - y.before)}`);
  }
  for (const s of b.stages ?? []) {
    const before = a.stages?.find((t) => stageName(t.stage) === stageName(s.stage));
    if (before) console.log(`   live ${stageName(s.stage).padEnd(20)} ${per(before.live, s.live)}`);
  }
}
