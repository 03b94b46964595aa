// What writing a built site costs the kernel, apart from making it: reads every file of an output folder (felt's
// dist, Hugo's public) into memory, then writes them again into a new folder on one thread, a folder made once per
// folder, and prints the CPU it took by part (felt's article pages, their page data, covers...). Compare two tools'
// outputs of one corpus, each into a fresh folder (a folder deleted minutes before makes new files slower, README):
//
//   sync; node bench/rewrite.mjs <bench work>/10000/felt/out-0 /tmp/rewrite-felt
//   sync; node bench/rewrite.mjs <bench work>/10000/hugo/public-0 /tmp/rewrite-hugo
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [from, to] = process.argv.slice(2);
if (!from || !to || existsSync(to)) {
  console.error('usage: node bench/rewrite.mjs <built site> <new folder, not there yet>');
  process.exit(2);
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

const rows = [];
const total = { files: 0, folders: 0, bytes: 0, ms: 0 };
const made = new Set();
for (const [part, files] of parts) {
  const before = process.cpuUsage();
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
  const { user, system } = process.cpuUsage(before);
  const ms = (user + system) / 1000;
  rows.push(`| ${part} | ${files.length.toLocaleString('en')} | ${folders.toLocaleString('en')} | ${(bytes / 1e6).toFixed(0)} | ${ms.toFixed(0)} |`);
  Object.assign(total, { files: total.files + files.length, folders: total.folders + folders, bytes: total.bytes + bytes, ms: total.ms + ms });
}
console.log(`| part | files | folders | MB | CPU (ms) |\n|---|---:|---:|---:|---:|\n${rows.join('\n')}`);
console.log(
  `| all | ${total.files.toLocaleString('en')} | ${total.folders.toLocaleString('en')} | ${(total.bytes / 1e6).toFixed(0)} | ${total.ms.toFixed(0)} |`,
);
