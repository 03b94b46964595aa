// The least a Node and React site generator does with a bench corpus (bench/corpus.mjs): for each article, read it,
// cut its frontmatter, render its body with markdown-it and Hugo's minimal single-page template (bench/peers.mjs) with
// React's renderToString, and write it into a folder of its own. One thread, no listings, no page data, no search
// index, no pictures: a floor under any build of the same articles in Node with React, to hold felt's figures and
// Hugo's against (README, "Where the time goes"). Run it in a fresh process, as the bench runs felt:
//
//   /usr/bin/time -f '%e s %M KB' node bench/floor.mjs <corpus>/content <out>
//
// It prints when its modules had loaded and when its last page was written, in ms from the process's start.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.mjs';

const USAGE = 'usage: node bench/floor.mjs <content folder> <output folder>';
const {
  positionals: [contentDir, outDir],
} = benchArgs(USAGE, { allowPositionals: true });
if (!contentDir || !outDir) {
  console.error(USAGE);
  process.exit(2);
}

const [{ createElement: h }, { renderToString }, { default: MarkdownIt }] = await Promise.all([
  import('react'),
  import('react-dom/server'),
  import('markdown-it'),
]);
const loaded = performance.now();
const markdown = new MarkdownIt();

function Page({ title, date, minutes, html }) {
  return h(
    'html',
    { lang: 'en' },
    h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, title)),
    h(
      'body',
      null,
      h('header', null, h('a', { href: '/' }, 'Bench')),
      h(
        'main',
        null,
        h('article', null, h('h1', null, title), h('p', null, `${date} · ${minutes} min`), h('div', { dangerouslySetInnerHTML: { __html: html } })),
      ),
      h('footer', null, '© Bench'),
    ),
  );
}

const folder = path.join(contentDir, 'articles', 'en_US');
let pages = 0;
for (const name of readdirSync(folder).sort()) {
  if (!name.endsWith('.md')) continue;
  const text = readFileSync(path.join(folder, name), 'utf8');
  const end = text.indexOf('\n---\n', 4);
  const front = text.slice(4, end);
  const body = text.slice(end + 5);
  const field = (key) => new RegExp(`^${key}: "?(.*?)"?$`, 'm').exec(front)?.[1] ?? '';
  const minutes = Math.max(1, Math.round(body.split(/\s+/).length / 200));
  const html = '<!doctype html>' + renderToString(h(Page, { title: field('title'), date: field('date'), minutes, html: markdown.render(body) }));
  const target = path.join(outDir, 'articles', field('slug'));
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, 'index.html'), html);
  pages++;
}
console.log(`floor: ${pages} pages; modules loaded at ${Math.round(loaded)} ms, last page written at ${Math.round(performance.now())} ms`);
