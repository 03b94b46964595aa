// `node bench/ab.mjs --a <felt folder> --b <felt folder>`: two versions of felt (two checkouts, each compiled with
// `npm run compile`) building the same bench corpus cold, alternating A and B, each into a folder of its own that
// nothing was just deleted from, with the image cache moved out of the way before each build (as `npm run bench`
// builds felt: see run.mjs's opening comment for why nothing is deleted between builds). Prints every build and the
// medians of wall, user and system time and peak memory. For a change whose effect is smaller than the machine's
// drift between runs: the pairs see the same drift. Cold builds only: two versions rebuilding one output in turn
// would each render every page (felt's code is part of every page's key); rebuilds need an output per version.
//
//   node bench/ab.mjs --a /tmp/felt-before --b . --articles 1000 --pairs 6
//   git worktree add /tmp/felt-before HEAD~1 && (cd /tmp/felt-before && npm ci && npm run compile)   # one way to get A
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.mjs';
import { writeCorpus } from './corpus.mjs';
import { median, timed } from './timed.mjs';

const USAGE = `usage: node bench/ab.mjs --a <felt folder> --b <felt folder> [--articles 1000 | --content <folder>] [--pairs 6] [--work <folder>] [--keep] [-- <build options>]

  --articles  the size of the bench corpus written for the run (bench/corpus.mjs)
  --content   a content folder to build instead (a kept bench's corpus: <work>/<size>/felt/content)
  --pairs     builds of A and of B, alternating
  --work      the folder for the corpus and the outputs (default: a new one in the system's temporary folder)
  --keep      keep the work folder (deleted at the end otherwise)`;
const { values, positionals: buildOptions } = benchArgs(USAGE, {
  allowPositionals: true,
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    articles: { type: 'string', default: '1000' },
    content: { type: 'string' },
    pairs: { type: 'string', default: '6' },
    work: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
if (!values.a || !values.b) {
  console.error(USAGE);
  process.exit(2);
}
const felts = { A: path.resolve(values.a, 'bin', 'felt.js'), B: path.resolve(values.b, 'bin', 'felt.js') };
for (const [name, felt] of Object.entries(felts)) {
  if (existsSync(felt)) continue;
  console.error(`--${name.toLowerCase()}: ${felt} is missing: give a felt checkout, compiled with npm run compile`);
  process.exit(2);
}
const work = values.work ? path.resolve(values.work) : mkdtempSync(path.join(os.tmpdir(), 'felt-ab-'));
mkdirSync(work, { recursive: true });
const content = values.content ? path.resolve(values.content) : path.join(work, 'corpus', 'content');
// felt keeps its caches beside the content folder (.felt-cache/).
const cache = path.join(path.dirname(content), '.felt-cache');

async function build(felt, out) {
  // Moved, not deleted: a deletion would slow the next build's file creation (run.mjs).
  if (existsSync(cache)) renameSync(cache, path.join(work, `cache-${Date.now()}`));
  const r = await timed(process.execPath, [felt, 'build', '--content', content, '--out', out, '--no-incremental', ...buildOptions]);
  if (r.code !== 0 || Number.isNaN(r.wall)) throw new Error(`${felt} failed:\n${r.stderr.slice(-2000)}`);
  return r;
}

try {
  if (!values.content) await writeCorpus(content, Number(values.articles));
  const results = { A: [], B: [] };
  for (let pair = 0; pair < Number(values.pairs); pair++) {
    for (const name of ['A', 'B']) {
      const r = await build(felts[name], path.join(work, `${name}-${pair}`));
      results[name].push(r);
      console.log(
        `${name} ${pair + 1}: wall ${r.wall.toFixed(2)} s, user ${r.user.toFixed(2)} s, system ${r.system.toFixed(2)} s, peak ${r.peakMB.toFixed(0)} MB`,
      );
    }
  }
  for (const name of ['A', 'B']) {
    const of = (field) => median(results[name].map((r) => r[field]));
    const range = (field) => `${Math.min(...results[name].map((r) => r[field])).toFixed(2)}–${Math.max(...results[name].map((r) => r[field])).toFixed(2)}`;
    console.log(
      `${name} (${path.dirname(path.dirname(felts[name]))}): median wall ${of('wall').toFixed(2)} s (${range('wall')}), user ${of('user').toFixed(2)} s, system ${of('system').toFixed(2)} s, peak ${of('peakMB').toFixed(0)} MB`,
    );
  }
} finally {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}
