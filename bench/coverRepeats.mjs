// How often a page of a built site shows the same drawn cover twice (README, Pictures): the articles of a
// subcategory share its covers (site/pictures/drawnCovers.ts), which its listings and related articles never repeat,
// but a page that takes its articles from far apart in a subcategory can (an author's page, an article shown through
// its second filing). Reads every page's HTML and counts, by kind of page, the pages, their cover images and the
// pages where one appears twice.
//
//   node bench/coverRepeats.mjs <built site>
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.mjs';

const USAGE = 'usage: node bench/coverRepeats.mjs <built site (a dist folder)>';
const { positionals } = benchArgs(USAGE, { allowPositionals: true });
if (positionals.length !== 1 || !statSync(positionals[0], { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`give one built site's folder\n\n${USAGE}`);
  process.exit(2);
}
const root = realpathSync(positionals[0]);
/** Folders at the site's root that hold no pages. */
const NOT_PAGES = new Set(['page-data', 'images', 'assets', 'search', 'icons', 'feeds', '.felt']);
const COVER = /<(?:div|picture) class="(?:card|article)-cover">(?:<source[^>]*>)*<img src="([^"]+)"/g;

const kinds = new Map();
const kindOf = (page) => (page === 'index.html' ? 'home' : page.startsWith('articles/') ? 'article' : page.startsWith('authors/') ? 'author' : 'listing');
for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
  if (!entry.isFile() || entry.name !== 'index.html') continue;
  const page = path.relative(root, path.join(entry.parentPath, entry.name));
  if (NOT_PAGES.has(page.split(path.sep)[0])) continue;
  const covers = [...readFileSync(path.join(root, page), 'utf8').matchAll(COVER)].map((m) => m[1]);
  const kind = kinds.get(kindOf(page)) ?? { pages: 0, covers: 0, repeating: 0 };
  kind.pages++;
  kind.covers += covers.length;
  if (new Set(covers).size < covers.length) kind.repeating++;
  kinds.set(kindOf(page), kind);
}
console.log('| pages | count | covers shown | pages showing a cover twice |\n|---|---:|---:|---:|');
for (const [name, { pages, covers, repeating }] of [...kinds].sort())
  console.log(`| ${name} | ${pages.toLocaleString('en')} | ${covers.toLocaleString('en')} | ${repeating} |`);
