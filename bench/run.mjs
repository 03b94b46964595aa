// `npm run bench`: felt against Hugo and Eleventy on the same synthetic
// corpus, interleaved, on this machine. Prints wall time, peak memory and
// pages per tool, felt's ratios to each peer, felt's rebuild after 20 new
// articles, and the page weight and search cost that issue #5 targets.
//
//   npm run bench                      1,000 and 10,000 articles
//   npm run bench -- --sizes 100000    felt alone at 100,000 (add --peers to include them)
//   npm run bench -- --runs 3          more interleaved runs; the median is reported
//   npm run bench -- --help            every option (--work, --keep)
//
// Every cold build, of felt and of each peer alike, writes into a folder of its own that nothing was just deleted
// from: felt into felt/out-<run>, Hugo into public-<run>, Eleventy into _site-<run>. Nothing is deleted until every
// build is measured: what a build would have replaced (the previous bench's work folder, felt's cache, Hugo's
// resources, the 20 articles a rebuild added) is renamed into a trash folder beside the work folder, which goes at
// the end, and the work folder with it unless --keep. Why: this machine's ext4 has no journal, and there
// creating a file skips, one by one, every free inode deleted in the last minute (six while its inode table block
// is not yet written back: `recently_deleted` in the kernel's ext4/ialloc.c). A cold 1,000-article felt build
// right after its previous output was deleted took 2.40-2.49 s, into a new folder 1.65-1.74 s; felt creates 6,000
// inodes there, Hugo 2,400, so the cost was not even the same for all. A fresh CI runner or a user's first build
// never pays it. A rebuild still builds over the output it rebuilds, as it does for a user: that is what it
// measures. Two benches back to back: the second starts right after the first one's deletion; wait a few
// minutes between them, or give the second another --work.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.mjs';
import { writeCorpus } from './corpus.mjs';
import { freezeFelt } from './frozenFelt.mjs';
import { describeMachine, machineState } from './machine.mjs';
import { median, timed } from './timed.mjs';
import { ensurePeers, writeEleventySite, writeHugoSite } from './peers.mjs';
import { articlePageWeight, searchQueryCost } from './weights.mjs';

const USAGE = `usage: npm run bench -- [--sizes 1000,10000] [--runs 1] [--peers] [--work <folder>] [--keep]

  --sizes   article counts to build, comma-separated (default 1000,10000; peers run below 100,000 unless --peers)
  --runs    interleaved runs per size; the median is printed (default 1)
  --peers   build Hugo and Eleventy at 100,000 and more too
  --work    the folder for corpora and outputs (default: felt-bench in the system's temporary folder)
  --keep    keep the work folder (corpora and the last run's outputs: about 9 GB at 100,000) instead of deleting it`;
const { values } = benchArgs(USAGE, {
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    runs: { type: 'string', default: '1' },
    peers: { type: 'boolean' },
    work: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
const work = values.work ?? path.join(os.tmpdir(), 'felt-bench');
const trash = `${work}.trash`;
let discarded = 0;

/** Moves a folder or file out of the way without deleting it (see the top): it is deleted at the end. */
async function discard(file) {
  if (!existsSync(file)) return;
  await mkdir(trash, { recursive: true });
  await rename(file, path.join(trash, `${discarded++}-${path.basename(file)}`));
}

/** A cold or incremental build under /usr/bin/time (timed.mjs): wall seconds and peak memory; throws when it fails. */
async function measure(command, args, cwd) {
  const r = await timed(command, args, { cwd, env: { ...process.env, NODE_ENV: 'production' } });
  if (r.code !== 0 || Number.isNaN(r.wall)) throw new Error(`${command} ${args.join(' ')} failed (${r.code}):\n${r.stderr.slice(-2000)}`);
  return { seconds: r.wall, peakMB: r.peakMB };
}

async function countHtml(dir) {
  let n = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && entry.name.endsWith('.html')) n++;
  return n;
}

const fmt = (x, digits = 1) => x.toFixed(digits);

async function benchSize(n, peers) {
  const dir = path.join(work, String(n));
  const content = path.join(dir, 'felt', 'content');
  console.log(`\n== ${n.toLocaleString('en')} articles: writing the corpus…`);
  await writeCorpus(content, n);
  if (peers.hugo) await writeHugoSite(content, path.join(dir, 'hugo'));
  if (peers.eleventy) await writeEleventySite(content, path.join(dir, 'eleventy'));

  // Each tool's output of a run, in a folder of its own (see the top); what a cold build must not find (a cache) is
  // moved out of the way, not deleted, before it.
  const tools = {
    felt: {
      // The output is a link into <out>.releases/: a cold build, as on a CI runner without a cache, has neither.
      out: (run) => path.join(dir, 'felt', `out-${run}`),
      prepare: () => discard(path.join(dir, 'felt', '.felt-cache')),
      run: (out) => measure(process.execPath, [FELT, 'build', '--content', content, '--out', out, '--no-incremental'], dir),
    },
  };
  if (peers.hugo)
    tools.hugo = {
      out: (run) => path.join(dir, 'hugo', `public-${run}`),
      prepare: () => discard(path.join(dir, 'hugo', 'resources')),
      run: (out) => measure('hugo', ['--quiet', '--destination', path.basename(out)], path.join(dir, 'hugo')),
    };
  if (peers.eleventy)
    tools.eleventy = {
      out: (run) => path.join(dir, 'eleventy', `_site-${run}`),
      prepare: async () => undefined,
      run: (out) => measure(process.execPath, [peers.eleventy, '--quiet', `--output=${path.basename(out)}`], path.join(dir, 'eleventy')),
    };

  const results = Object.fromEntries(Object.keys(tools).map((t) => [t, []]));
  const rebuilds = [];
  const last = runs - 1;
  for (let run = 0; run < runs; run++) {
    // Interleaved: each run builds every tool once, so load on the machine hits all alike.
    for (const [name, tool] of Object.entries(tools)) {
      await tool.prepare();
      process.stdout.write(`   ${name} cold build ${run + 1}/${runs}… `);
      const r = await tool.run(tool.out(run));
      console.log(`${fmt(r.seconds)} s, ${fmt(r.peakMB, 0)} MB`);
      results[name].push(r);
    }
    // felt's nightly case: the previous build is there, 20 articles arrive. It builds over this run's cold output.
    const feltOut = tools.felt.out(run);
    await measure(process.execPath, [FELT, 'build', '--content', content, '--out', feltOut], dir);
    await writeCorpus(content, 20, { offset: n + run * 20, fresh: true });
    const r = await measure(process.execPath, [FELT, 'build', '--content', content, '--out', feltOut], dir);
    console.log(`   felt rebuild after 20 new articles: ${fmt(r.seconds, 2)} s, ${fmt(r.peakMB, 0)} MB`);
    rebuilds.push(r);
    for (let i = 0; i < 20; i++) await discard(path.join(content, 'articles', 'en_US', `article-${String(n + run * 20 + i).padStart(6, '0')}.md`));
  }
  const rows = {};
  for (const [name, tool] of Object.entries(tools)) {
    rows[name] = {
      seconds: median(results[name].map((r) => r.seconds)),
      peakMB: median(results[name].map((r) => r.peakMB)),
      pages: await countHtml(tool.out(last)).catch(() => 0),
    };
  }
  rows.feltRebuild = { seconds: median(rebuilds.map((r) => r.seconds)), peakMB: median(rebuilds.map((r) => r.peakMB)) };
  const feltOut = tools.felt.out(last);
  const weight = await articlePageWeight(feltOut);
  const search = await searchQueryCost(feltOut);
  // Kept at the end: the last run's outputs, as the bench always left them. The earlier runs' go with the trash.
  for (let run = 0; run < last; run++) {
    for (const tool of Object.values(tools)) {
      await discard(tool.out(run));
      await discard(`${tool.out(run)}.releases`);
    }
  }
  return { n, rows, weight, search, sitemapFiles: (await readdir(feltOut)).filter((f) => /^sitemap(-\d+)?\.xml$/.test(f)).length };
}

// The peers are installed only when a size runs them: `--sizes 100000` alone measures felt alone.
const needsPeers = (n) => n < 100_000 || values.peers;
const peers = sizes.some(needsPeers) ? ensurePeers() : undefined;
// The previous bench's folder (corpora and outputs) is moved aside now and deleted with the trash at the end.
await discard(work);
// Every felt build of this run runs this copy of felt, whatever a test run compiles into lib/ meanwhile.
const FELT = await freezeFelt(work);
// The machine's speed at what moves every tool's wall time (bench/machine.mjs), before the builds and after them.
const machineBefore = await machineState(path.join(work, 'machine-before'));
const all = [];
for (const n of sizes) {
  const usePeers = needsPeers(n) ? peers : { hugo: false, eleventy: undefined };
  all.push(await benchSize(n, usePeers));
}
// Every build is measured: now what was moved aside can go.
await rm(trash, { recursive: true, force: true });
const machineAfter = await machineState(path.join(work, 'machine-after'));

console.log(`\nfelt bench — ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}, median of ${runs} interleaved run(s)`);
console.log(`this machine before the builds: ${describeMachine(machineBefore)}`);
console.log(`this machine after them:        ${describeMachine(machineAfter)}\n`);
console.log('| articles | tool | wall (s) | peak memory (MB) | pages | felt / tool (wall) | felt / tool (memory) |');
console.log('|---:|---|---:|---:|---:|---:|---:|');
for (const { n, rows } of all) {
  for (const [name, row] of Object.entries(rows)) {
    if (name === 'feltRebuild') continue;
    const ratio = name === 'felt' ? '' : `${fmt(rows.felt.seconds / row.seconds, 2)} | ${fmt(rows.felt.peakMB / row.peakMB, 2)}`;
    console.log(
      `| ${n.toLocaleString('en')} | ${name} | ${fmt(row.seconds)} | ${fmt(row.peakMB, 0)} | ${row.pages.toLocaleString('en')} | ${ratio || '– | –'} |`,
    );
  }
  const hugo = rows.hugo ? ` (${fmt(rows.feltRebuild.seconds / rows.hugo.seconds, 2)} × Hugo's cold build)` : '';
  console.log(
    `| ${n.toLocaleString('en')} | felt, rebuild after +20 | ${fmt(rows.feltRebuild.seconds, 2)} | ${fmt(rows.feltRebuild.peakMB, 0)} | | ${hugo || '–'} | |`,
  );
}
console.log('\n| articles | article page before interaction (gzip) | search query, worst (gzip) | sitemap files |');
console.log('|---:|---:|---:|---:|');
for (const { n, weight, search, sitemapFiles } of all)
  console.log(`| ${n.toLocaleString('en')} | ${fmt(weight / 1024)} KB | ${fmt(search / 1024)} KB | ${sitemapFiles} |`);
// The corpora and the last run's outputs are gigabytes at 100,000: gone unless asked for (the tables are printed).
if (values.keep) console.log(`\nkept: ${work}`);
else await rm(work, { recursive: true, force: true });
