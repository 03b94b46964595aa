// `npm run bench`: felt against Hugo and Eleventy on the same synthetic
// corpus, interleaved, on this machine. Prints wall time, peak memory and
// pages per tool, felt's ratios to each peer, felt's rebuild after 20 new
// articles, and the page weight and search cost that issue #5 targets.
//
//   npm run bench                      1,000 and 10,000 articles
//   npm run bench -- --sizes 100000    felt alone at 100,000 (add --peers to include them)
//   npm run bench -- --runs 3          more interleaved runs; the median is reported
import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from './corpus.mjs';
import { ensurePeers, writeEleventySite, writeHugoSite } from './peers.mjs';
import { articlePageWeight, searchQueryCost } from './weights.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FELT = path.join(ROOT, 'bin', 'felt.js');
const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '1000,10000' }, runs: { type: 'string', default: '1' }, peers: { type: 'boolean' }, work: { type: 'string' } },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
const work = values.work ?? path.join(os.tmpdir(), 'felt-bench');

/** Runs a command under /usr/bin/time: wall seconds and peak resident memory (whole process, all threads). */
function measure(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'BENCH %e %M', command, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const m = /BENCH ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !m) return reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${stderr.slice(-2000)}`));
      resolve({ seconds: Number(m[1]), peakMB: Number(m[2]) / 1024 });
    });
  });
}

async function countHtml(dir) {
  let n = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile() && entry.name.endsWith('.html')) n++;
  return n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x, digits = 1) => x.toFixed(digits);

async function benchSize(n, peers) {
  const dir = path.join(work, String(n));
  const content = path.join(dir, 'felt', 'content');
  console.log(`\n== ${n.toLocaleString('en')} articles: writing the corpus…`);
  await writeCorpus(content, n);
  if (peers.hugo) await writeHugoSite(content, path.join(dir, 'hugo'));
  if (peers.eleventy) await writeEleventySite(content, path.join(dir, 'eleventy'));

  const tools = {
    felt: {
      run: () => measure(process.execPath, [FELT, 'build', '--content', content, '--out', path.join(dir, 'felt', 'dist'), '--no-incremental'], dir),
      out: path.join(dir, 'felt', 'dist'),
    },
  };
  if (peers.hugo)
    tools.hugo = { run: () => measure('hugo', ['--quiet', '--destination', 'public'], path.join(dir, 'hugo')), out: path.join(dir, 'hugo', 'public') };
  if (peers.eleventy)
    tools.eleventy = {
      run: () => measure(process.execPath, [peers.eleventy, '--quiet', '--output=_site'], path.join(dir, 'eleventy')),
      out: path.join(dir, 'eleventy', '_site'),
    };

  const results = Object.fromEntries(Object.keys(tools).map((t) => [t, []]));
  const rebuilds = [];
  for (let run = 0; run < runs; run++) {
    // Interleaved: each run builds every tool once, so load on the machine hits all alike.
    for (const [name, tool] of Object.entries(tools)) {
      await rm(tool.out, { recursive: true, force: true });
      // dist is a link into dist.releases/: a cold build, as on a CI runner without a cache, has neither.
      if (name === 'felt') await rm(`${tool.out}.releases`, { recursive: true, force: true });
      await rm(path.join(dir, 'hugo', 'resources'), { recursive: true, force: true });
      await rm(path.join(dir, 'felt', '.felt-cache'), { recursive: true, force: true });
      process.stdout.write(`   ${name} cold build ${run + 1}/${runs}… `);
      const r = await tool.run();
      console.log(`${fmt(r.seconds)} s, ${fmt(r.peakMB, 0)} MB`);
      results[name].push(r);
    }
    // felt's nightly case: the previous build is there, 20 articles arrive.
    await measure(process.execPath, [FELT, 'build', '--content', content, '--out', tools.felt.out], dir);
    await writeCorpus(content, 20, { offset: n + run * 20, fresh: true });
    const r = await measure(process.execPath, [FELT, 'build', '--content', content, '--out', tools.felt.out], dir);
    console.log(`   felt rebuild after 20 new articles: ${fmt(r.seconds, 2)} s, ${fmt(r.peakMB, 0)} MB`);
    rebuilds.push(r);
    for (let i = 0; i < 20; i++) await rm(path.join(content, 'articles', 'en_US', `article-${String(n + run * 20 + i).padStart(6, '0')}.md`));
  }
  const rows = {};
  for (const [name, tool] of Object.entries(tools)) {
    rows[name] = {
      seconds: median(results[name].map((r) => r.seconds)),
      peakMB: median(results[name].map((r) => r.peakMB)),
      pages: await countHtml(tool.out).catch(() => 0),
    };
  }
  rows.feltRebuild = { seconds: median(rebuilds.map((r) => r.seconds)), peakMB: median(rebuilds.map((r) => r.peakMB)) };
  const weight = await articlePageWeight(tools.felt.out);
  const search = await searchQueryCost(tools.felt.out);
  return { n, rows, weight, search, sitemapFiles: (await readdir(tools.felt.out)).filter((f) => /^sitemap(-\d+)?\.xml$/.test(f)).length };
}

// The peers are installed only when a size runs them: `--sizes 100000` alone measures felt alone.
const needsPeers = (n) => n < 100_000 || values.peers;
const peers = sizes.some(needsPeers) ? ensurePeers() : undefined;
const all = [];
for (const n of sizes) {
  const usePeers = needsPeers(n) ? peers : { hugo: false, eleventy: undefined };
  all.push(await benchSize(n, usePeers));
}

console.log(
  `\nfelt bench — ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}, median of ${runs} interleaved run(s)\n`,
);
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
