// Load benchmark of `felt serve` (issue 6, item 6): autocannon on loopback,
// 100 connections for 30 seconds over a mix of pages, page data and assets.
// The server runs in its own process, as in production; its resident memory
// is sampled before, during and after the run.
//
//   npm run bench:load                      build the bundled content, then load it
//   node bench/load.mjs --dir dist          load an existing build
//   node bench/load.mjs --duration 10 --connections 50
//
// A benchmark, not a test: it prints figures and exits 0 unless the run
// itself could not happen. The README's "Security and reliability" section
// quotes its output.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { ensureTools } from '../scripts/tools.mjs';
import { benchArgs } from './args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const felt = path.join(root, 'bin', 'felt.js');
const USAGE = `usage: node bench/load.mjs [--dir <built site> | --content <folder>] [--duration 30] [--connections 100]

  --dir          an existing build to load (default: --content is built into a temporary folder, deleted at the end)
  --content      the content folder to build when no --dir is given (default: the bundled content/)
  --duration     seconds of load (default 30)
  --connections  concurrent connections (default 100)`;
// Parsed before the load tools are installed: a mistyped option should not cost an npm install first.
const { values: flags } = benchArgs(USAGE, {
  options: {
    dir: { type: 'string' },
    content: { type: 'string', default: path.join(root, 'content') },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '100' },
  },
});
const autocannon = createRequire(path.join(ensureTools('load'), 'package.json'))('autocannon');
const duration = Number(flags.duration);
const connections = Number(flags.connections);

function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else out.push(rel);
  }
  return out;
}

/** Resident set size of a process in MB (Linux /proc, else ps). */
function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
  } catch {
    return (
      Number(
        execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
          .toString()
          .trim(),
      ) / 1024
    );
  }
}

/** Every fifth route, some page data, the shared assets, sitemap and feed: what visitors and crawlers fetch. */
function requestMix(dist) {
  const files = listFiles(dist);
  const pages = files.filter((f) => f.endsWith('index.html')).map((f) => `/${f.replace(/index\.html$/, '').replace(/\/$/, '')}`);
  const data = files.filter((f) => f.startsWith('page-data/') && f.endsWith('page-data.json')).map((f) => `/${f}`);
  const assets = files.filter((f) => f.startsWith('assets/')).map((f) => `/${f}`);
  const pick = (list, every) => list.filter((_, i) => i % every === 0);
  const paths = [...pick(pages, 5), ...pick(data, 10), ...assets, '/sitemap.xml', '/feed.xml', '/robots.txt', '/favicon.ico'];
  return paths.map((p) => ({ method: 'GET', path: p === '' ? '/' : p }));
}

async function startServer(dist) {
  const child = spawn(process.execPath, [felt, 'serve', '--dir', dist, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (found) resolve(found[1]);
    });
    child.on('exit', (code) => reject(new Error(`felt serve exited with ${code}`)));
  });
  return { child, url };
}

async function main() {
  let dist = flags.dir && path.resolve(flags.dir);
  let temp;
  if (!dist) {
    temp = await mkdtemp(path.join(os.tmpdir(), 'felt-load-'));
    dist = path.join(temp, 'dist');
    console.log(`building ${path.relative(process.cwd(), flags.content) || '.'} into ${dist} …`);
    execFileSync(process.execPath, [felt, 'build', '--content', flags.content, '--out', dist], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} holds no built site`);
  const requests = requestMix(dist);
  const { child, url } = await startServer(dist);
  try {
    // A short warm-up, so "before" is the server ready to work, not just started.
    await autocannon({ url, connections: 10, duration: 2, requests });
    const before = rssMb(child.pid);
    const samples = [];
    const sampler = setInterval(() => samples.push(rssMb(child.pid)), 1000);
    console.log(`loading ${url} with ${connections} connections for ${duration} s over ${requests.length} paths …`);
    const result = await autocannon({ url, connections, duration, requests });
    clearInterval(sampler);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = rssMb(child.pid);
    const peak = Math.max(before, after, ...samples);
    const errors = result.errors + result.timeouts + result.non2xx;
    const figures = {
      node: process.version,
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
      paths: requests.length,
      connections,
      seconds: duration,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      throughputMBps: Number((result.throughput.average / 1024 / 1024).toFixed(1)),
      errors: { total: errors, connection: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
      rssMb: { before: Math.round(before), peak: Math.round(peak), after: Math.round(after), every10s: samples.filter((_, i) => i % 10 === 9).map(Math.round) },
    };
    console.log(`
requests/s      ${figures.requestsPerSecond} (${figures.requests} in ${duration} s)
latency         p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms, max ${figures.latencyMs.max} ms
throughput      ${figures.throughputMBps} MB/s
errors          ${errors} (connection ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})
server RSS      before ${figures.rssMb.before} MB, every 10 s ${figures.rssMb.every10s.join(' / ')} MB, peak ${figures.rssMb.peak} MB, after ${figures.rssMb.after} MB
machine         ${figures.cpus}, Node ${process.version}
`);
    console.log(JSON.stringify(figures));
  } finally {
    child.kill('SIGTERM');
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`bench:load: ${error.message}`);
  process.exitCode = 1;
});
