// `node bench/settingsChange.mjs [--articles 10000] [--work <folder>] [--keep]`: what a change of settings costs the
// build that follows it and the night after. A site of the bench corpus is built cold, then after 20 new articles
// (from then on it has a spare release), then after the tagline in site.json is edited (every page changes: a full
// build, written over the spare, site/build/commit.ts openRewrite), then twice more after 20 new articles (the first
// reworks a spare of the other templates, the second is a usual night). Each build runs under /usr/bin/time; the
// table says its wall and CPU time, its peak memory and what `felt build --json` says of its release. A felt upgrade
// costs the same two builds: it changes every page's templates as the edit does.
// Compiles nothing: run `npm run compile` first (the builds run a copy of felt as it is then, bench/frozenFelt.mjs).
// The work folder is deleted at the end unless --keep.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.mjs';
import { writeCorpus } from './corpus.mjs';
import { freezeFelt } from './frozenFelt.mjs';
import { timed } from './timed.mjs';

const USAGE = `usage: node bench/settingsChange.mjs [--articles 10000] [--work <folder>] [--keep]

  --articles  the size of the bench corpus the site is built from (default 10000)
  --work      the folder for the corpus and the site (default: a new one in the system's temporary folder)
  --keep      keep the work folder (deleted at the end otherwise)`;
const { values } = benchArgs(USAGE, {
  options: { articles: { type: 'string', default: '10000' }, work: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const articles = Number(values.articles);
if (!Number.isInteger(articles) || articles < 1) {
  console.error(`--articles takes a whole number of articles, not ${values.articles}\n\n${USAGE}`);
  process.exit(2);
}
const work = values.work ?? mkdtempSync(path.join(os.tmpdir(), 'felt-settings-'));
const content = path.join(work, 'content');
const out = path.join(work, 'dist');
// Every build runs this copy of felt: a rebuild must find the code version the build before it had.
const FELT = await freezeFelt(work);

let added = 0;
const addArticles = () => writeCorpus(content, 20, { offset: articles + 20 * added++, fresh: true });
function editTagline() {
  const file = path.join(content, 'site.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  const edit = (text) => `${text} Edited.`;
  settings.tagline =
    typeof settings.tagline === 'string' ? edit(settings.tagline) : Object.fromEntries(Object.entries(settings.tagline).map(([k, v]) => [k, edit(v)]));
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

const steps = [
  ['cold build', async () => {}],
  ['20 articles added', addArticles],
  ['the tagline edited', editTagline],
  ['20 articles added', addArticles],
  ['20 articles added', addArticles],
];

try {
  console.log(`${articles.toLocaleString('en')} articles in ${work}\n`);
  await writeCorpus(content, articles);
  console.log('| build | wall (s) | user (s) | system (s) | peak (MB) | pages rendered | release |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const [what, change] of steps) {
    await change();
    const run = await timed(process.execPath, [FELT, 'build', '--content', content, '--out', out, '--json']);
    if (run.code !== 0) throw new Error(`the build after "${what}" failed: ${run.stderr}`);
    const { release, rendered, pages } = JSON.parse(run.stdout);
    const made = release ? `${release.from}, ${release.linked.toLocaleString('en')} linked` : 'a new folder';
    console.log(`| ${what} | ${run.wall} | ${run.user} | ${run.system} | ${Math.round(run.peakMB)} | ${rendered} of ${pages} | ${made} |`);
  }
} finally {
  if (values.keep) console.log(`\nkept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
