// Sums the CPU profiles of a build, one table row a thread: where a cold build's time goes (README, "Where the time
// goes"). Make them with `node --cpu-prof --cpu-prof-dir=<folder> bin/felt.js build …`: Node writes one .cpuprofile
// per thread (the build's thread, each render worker, the writer thread).
//
//   node bench/profile.mjs <folder>
//
// A part is the time spent inside the functions named (inclusive: what they call is theirs, the kernel's share of a
// system call included, since a profile samples the thread while it waits for the call). React's share is the page's
// render less the markdown and the body read inside it: a sample inside two parts counts for the first listed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.mjs';

const PARTS = [
  ['load content', ['loadContent', 'loadArticles', 'parseArticle', 'parseArticleBytes', 'readInspected']],
  ['markdown-it', ['renderMarkdown']],
  ['reading bodies again', ['readArticleBody']],
  ['React and the components', ['renderMain']],
  ['page data JSON', ['pageDataJson']],
  ['head tags', ['headTags']],
  ['SVG covers', ['svgCoverFile']],
  ['writing files', ['writeFileSync', 'mkdirSync', 'openSync', 'closeSync']],
  ['page keys, data checks', ['pageKey', 'checkPageData']],
];

const USAGE = 'usage: node bench/profile.mjs <folder of .cpuprofile files>';
const { positionals } = benchArgs(USAGE, { allowPositionals: true });
if (positionals.length !== 1) {
  console.error(`give one folder\n\n${USAGE}`);
  process.exit(2);
}
const [folder] = positionals;
if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`bench/profile.mjs: ${folder} is not a folder; make one with node --cpu-prof --cpu-prof-dir=${folder} …`);
  process.exit(2);
}

const files = readdirSync(folder)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort();
if (files.length === 0) {
  console.error(`bench/profile.mjs: no .cpuprofile in ${folder}; make them with node --cpu-prof --cpu-prof-dir=${folder} …`);
  process.exit(2);
}

const seconds = (us) => (us / 1e6).toFixed(2);
console.log(`| thread | profiled (s) | idle | garbage collection | ${PARTS.map(([name]) => name).join(' | ')} | other |`);
console.log(`|---|${'---:|'.repeat(PARTS.length + 4)}`);
for (const file of files) {
  const profile = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const own = new Map();
  for (let i = 0; i < profile.samples.length; i++) own.set(profile.samples[i], (own.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const totals = { all: 0, idle: 0, gc: 0, other: 0, parts: PARTS.map(() => 0) };
  for (const [id, time] of own) {
    totals.all += time;
    const name = byId.get(id).callFrame.functionName;
    if (name === '(idle)') totals.idle += time;
    else if (name === '(garbage collector)') totals.gc += time;
    else {
      const names = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) names.add(byId.get(at).callFrame.functionName);
      const part = PARTS.findIndex(([, functions]) => functions.some((f) => names.has(f)));
      if (part === -1) totals.other += time;
      else totals.parts[part] += time;
    }
  }
  const thread = /\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1] ?? file;
  console.log(
    `| ${thread} | ${seconds(totals.all)} | ${seconds(totals.idle)} | ${seconds(totals.gc)} | ${totals.parts.map(seconds).join(' | ')} | ${seconds(totals.other)} |`,
  );
}
