// What writing a built site costs the kernel, apart from making it: reads every file of an output folder (felt's
// dist, Hugo's public) into memory, then writes them again into a new folder, a folder made once per folder, and
// prints the CPU it took by part (felt's article pages, their page data, covers...). Compare two tools' outputs of
// one corpus, each into a fresh folder (a folder deleted minutes before makes new files slower, README):
//
//   sync; node bench/rewrite.mjs <bench work>/10000/felt/out-0 /tmp/rewrite-felt
//   sync; node bench/rewrite.mjs <bench work>/10000/hugo/public-0 /tmp/rewrite-hugo
//   sync; node bench/rewrite.mjs --threads 2 <bench work>/10000/felt/out-0 /tmp/rewrite-felt-2
//
// With --threads N the files go to N worker threads in alternate batches of 64, as a build's render threads write
// them, and it prints the wall time and the whole process's CPU instead of the parts (--threads 1 to compare).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { benchArgs } from './args.mjs';

const BATCH = 64;

if (isMainThread) await main();
else writeAll(workerData.files, workerData.to);

async function main() {
  const USAGE = 'usage: node bench/rewrite.mjs [--threads N] <built site> <new folder, not there yet>';
  const {
    values,
    positionals: [from, to],
  } = benchArgs(USAGE, { allowPositionals: true, options: { threads: { type: 'string' } } });
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (!from || !to || existsSync(to) || !(threads === undefined || threads >= 1)) {
    console.error(USAGE);
    process.exit(2);
  }
  const parts = readParts(from);
  if (threads !== undefined) return rewriteOnThreads([...parts.values()].flat(), to, threads);
  const rows = [];
  const total = { files: 0, folders: 0, bytes: 0, ms: 0 };
  const made = new Set();
  for (const [part, files] of parts) {
    const before = process.cpuUsage();
    const { folders, bytes } = writeAll(files, to, made);
    const ms = cpuMs(process.cpuUsage(before));
    rows.push(`| ${part} | ${files.length.toLocaleString('en')} | ${folders.toLocaleString('en')} | ${(bytes / 1e6).toFixed(0)} | ${ms.toFixed(0)} |`);
    Object.assign(total, { files: total.files + files.length, folders: total.folders + folders, bytes: total.bytes + bytes, ms: total.ms + ms });
  }
  console.log(`| part | files | folders | MB | CPU (ms) |\n|---|---:|---:|---:|---:|\n${rows.join('\n')}`);
  console.log(
    `| all | ${total.files.toLocaleString('en')} | ${total.folders.toLocaleString('en')} | ${(total.bytes / 1e6).toFixed(0)} | ${total.ms.toFixed(0)} |`,
  );
}

/** The part of the site a file belongs to, by felt's layout (DESIGN.md, "Build output"); a peer's are all "other" but its pages. */
function partOf(relative) {
  const [top, second] = relative.split(path.sep);
  if (top === 'articles') return 'article pages';
  if (top === 'page-data') return second === 'articles' ? 'article page data' : 'other page data';
  if (top === 'images' && second === 'covers') return 'covers';
  if (top === 'search') return 'search index';
  return 'other';
}

/** Every file under `from`, as [relative path, bytes], by part. */
function readParts(from) {
  const parts = new Map();
  (function read(folder) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) read(file);
      else if (entry.isFile()) {
        const relative = path.relative(from, file);
        const part = partOf(relative);
        if (!parts.has(part)) parts.set(part, []);
        parts.get(part).push([relative, readFileSync(file)]);
      }
    }
  })(from);
  return parts;
}

/** Writes the files under `to`, making each folder the first time one of its files comes. */
function writeAll(files, to, made = new Set()) {
  let folders = 0;
  let bytes = 0;
  for (const [relative, content] of files) {
    const target = path.join(to, relative);
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
      folders++;
    }
    writeFileSync(target, content);
    bytes += content.length;
  }
  return { folders, bytes };
}

async function rewriteOnThreads(files, to, threads) {
  const shares = Array.from({ length: threads }, () => []);
  for (let i = 0; i < files.length; i++) shares[Math.floor(i / BATCH) % threads].push(files[i]);
  const before = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => new Worker(new URL(import.meta.url), { workerData: { files: share, to } }).on('error', reject).on('exit', resolve)),
    ),
  );
  const { user, system } = process.cpuUsage(before);
  console.log(
    `${files.length.toLocaleString('en')} files on ${threads} threads: ${(performance.now() - start).toFixed(0)} ms wall, ` +
      `${(user / 1000).toFixed(0)} ms user and ${(system / 1000).toFixed(0)} ms system CPU (the threads' start and the files' copy to them included)`,
  );
}

function cpuMs({ user, system }) {
  return (user + system) / 1000;
}
