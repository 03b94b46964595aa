// A deterministic synthetic corpus for benchmarks: N articles of about 900
// words each, spread over the bundled categories and authors, written as felt
// content (and reused by the peers' templates). The same N gives the same
// bytes on every run.
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** mulberry32: a tiny seeded PRNG, so corpora (and generated test cases) are reproducible. The one copy: benches and tests import it. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'bankroll variance odds edge stake market value line closing position pot equity range bluff fold call raise river turn flop ' +
  'tournament cash table limit session record discipline tilt expectation probability handicap spread total parlay hedge exchange margin ' +
  'bookmaker player dealer house rule strategy season trend data model risk reward patience study review habit focus decision'
).split(' ');

function sentence(rand, min = 8, max = 18) {
  const n = min + Math.floor(rand() * (max - min));
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return words.join(' ') + '.';
}

function paragraph(rand) {
  return Array.from({ length: 4 + Math.floor(rand() * 3) }, () => sentence(rand)).join(' ');
}

export function articleBody(rand) {
  const parts = [paragraph(rand)];
  for (let s = 1; s <= 5; s++) {
    parts.push(`## Section ${s}: ${sentence(rand, 3, 6).slice(0, -1)}`);
    parts.push(paragraph(rand), paragraph(rand));
    if (s % 2) parts.push(['- ' + sentence(rand, 4, 8), '- ' + sentence(rand, 4, 8), '- ' + sentence(rand, 4, 8)].join('\n'));
    if (s === 3) parts.push(`### Detail\n\n${paragraph(rand)}`);
  }
  return parts.join('\n\n') + '\n';
}

/** Marks a folder writeCorpus made: only such a folder (or an empty or missing one) is replaced. */
const MARKER = '.bench-corpus';

/**
 * Writes a felt content folder with `count` articles into `dir` (replacing it, if writeCorpus made it: a mistyped
 * folder such as `.` or the bundled `content` is refused, not deleted),
 * or, with an offset, adds `count` more; `fresh` dates them after the whole corpus.
 * Returns the list of { slug, title, date, category, subcategory, author } for the peers.
 */
export async function writeCorpus(dir, count, { seed = 42, offset = 0, fresh = false } = {}) {
  if (offset === 0) {
    const entries = await readdir(dir).catch((error) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
    // A corpus written before the marker existed (a bench's --work folder kept from then) has the corpus's first article.
    const earlierCorpus = existsSync(path.join(dir, 'articles', 'en_US', 'article-000000.md'));
    if (entries.length > 0 && !entries.includes(MARKER) && !earlierCorpus) {
      throw new Error(`refusing to replace ${dir}: it is not a bench corpus (no ${MARKER} in it); give a new or empty folder`);
    }
    await rm(dir, { recursive: true, force: true });
    await mkdir(path.join(dir, 'articles', 'en_US'), { recursive: true });
    await writeFile(path.join(dir, MARKER), 'written by bench/corpus.mjs: replaced by the next corpus written here\n');
    for (const file of ['site.json', 'categories.json', 'authors.json', 'ads.json']) await cp(path.join(ROOT, 'content', file), path.join(dir, file));
    await cp(path.join(ROOT, 'content', 'pages'), path.join(dir, 'pages'), { recursive: true });
  }
  const categories = JSON.parse(await readFile(path.join(ROOT, 'content', 'categories.json'), 'utf8'));
  const authors = JSON.parse(await readFile(path.join(ROOT, 'content', 'authors.json'), 'utf8'));
  const keys = Object.keys(categories);
  const rand = random(seed + offset);
  const meta = [];
  for (let i = offset; i < offset + count; i++) {
    const category = keys[i % keys.length];
    const children = Object.keys(categories[category].children);
    const subcategory = children[Math.floor(rand() * children.length)];
    const author = authors[Math.floor(rand() * authors.length)].name;
    // The corpus spans 2,500 days; fresh articles (a nightly pull) come after all of them, as generated ones do.
    const day = new Date(Date.UTC(2020, 0, 1) + ((fresh ? 2500 : 0) + (i % 2500)) * 86400000).toISOString().slice(0, 10);
    const slug = `article-${String(i).padStart(6, '0')}`;
    const title = `${sentence(rand, 3, 7).slice(0, -1)} ${i}`;
    meta.push({ slug, title, date: day, category, subcategory, author });
    const text = `---\ntitle: "${title}"\nslug: ${slug}\ndescription: "${sentence(rand, 10, 20)}"\nauthor: ${author}\ndate: ${day}\nlocale: en_US\nentities:\n  - category: ${category}\n    subcategories:\n      - subcategory: ${subcategory}\n        subsubcategories: []\n---\n${articleBody(rand)}`;
    await writeFile(path.join(dir, 'articles', 'en_US', `${slug}.md`), text);
  }
  return meta;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const USAGE = `usage: node bench/corpus.mjs <dir> <count>

  Writes <count> articles of the bench corpus, as felt content, into <dir> (replaced, if an earlier corpus; any other folder that is not empty is refused).`;
  const { positionals } = benchArgs(USAGE, { allowPositionals: true });
  if (positionals.length !== 2) {
    console.error(`give a folder and a count\n\n${USAGE}`);
    process.exit(2);
  }
  const [dir, count] = positionals;
  if (!/^[1-9]\d*$/.test(count)) {
    console.error(`count must be a positive integer, not ${count}\n\n${USAGE}`);
    process.exit(2);
  }
  try {
    await writeCorpus(path.resolve(dir), Number(count));
  } catch (error) {
    console.error(`bench/corpus.mjs: ${error.message}`);
    process.exit(2);
  }
  console.log(`wrote ${count} articles into ${dir}`);
}
