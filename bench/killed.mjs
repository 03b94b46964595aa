// `node bench/killed.mjs [--articles 10000] [--work <folder>]`: what a killed rebuild costs the next one. A site of
// the bench corpus is built, then rebuilt twice after 20 new articles each (the usual nights: the served release made
// from the spare); the third rebuild is killed once its pages are written (FELT_CRASH_AT=pages-written), with its
// release open and no spare left. The next build, timed under /usr/bin/time, reworks that unfinished release
// (site/build/commit.ts); it prints its wall and CPU time and what `felt build --json` says of its release.
// Compiles nothing: run `npm run compile` first (the builds run a copy of felt as it is then, bench/frozenFelt.mjs). The work folder is deleted at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.mjs';
import { writeCorpus } from './corpus.mjs';
import { freezeFelt } from './frozenFelt.mjs';
import { timed } from './timed.mjs';

const USAGE = `usage: node bench/killed.mjs [--articles 10000] [--work <folder>]

  --articles  the size of the bench corpus the site is built from (default 10000)
  --work      the folder for the corpus and the site (default: a new one in the system's temporary folder); deleted at the end`;
const { values } = benchArgs(USAGE, { options: { articles: { type: 'string', default: '10000' }, work: { type: 'string' } } });
const articles = Number(values.articles);
const work = values.work ?? mkdtempSync(path.join(os.tmpdir(), 'felt-killed-'));
const content = path.join(work, 'content');
const out = path.join(work, 'dist');
// Every build runs this copy of felt: a rebuild must find the code version the build before it had.
const FELT = await freezeFelt(work);

function build(env = {}) {
  return timed(process.execPath, [FELT, 'build', '--content', content, '--out', out, '--json'], { env: { ...process.env, ...env } });
}

try {
  console.log(`${articles.toLocaleString('en')} articles in ${work}`);
  await writeCorpus(content, articles);
  if ((await build()).code !== 0) throw new Error('the first build failed');
  for (let night = 0; night < 3; night++) {
    await writeCorpus(content, 20, { offset: articles + night * 20, fresh: true });
    const run = await build(night === 2 ? { FELT_CRASH_AT: 'pages-written' } : {});
    if (night < 2 && run.code !== 0) throw new Error(`rebuild ${night + 1} failed: ${run.stderr}`);
    if (night === 2 && !run.killed) throw new Error('the third rebuild was not killed');
  }
  const next = await build();
  if (next.code !== 0) throw new Error(`the build after the kill failed: ${next.stderr}`);
  const { release, pages } = JSON.parse(next.stdout);
  console.log(
    `the build after the kill: ${next.wall} s wall, ${next.user} s user, ${next.system} s system; ${pages} pages; release ${JSON.stringify(release)}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
