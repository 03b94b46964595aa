// `node bench/search.mjs [--articles 2000]`: felt's search index beside
// Pagefind's on the bench corpus (bench/corpus.mjs), for the README's table:
// index size on disk, bytes received per query, and the top results of a few
// queries. Pagefind (1.6.0) is installed into scripts/tools/search/ on the
// first run (scripts/tools.mjs), never into felt's package.json.
import { ensureTools } from '../scripts/tools.mjs';
import { withTypeScript } from '../scripts/withTypeScript.mjs';
import { benchArgs } from './args.mjs';

const USAGE = `usage: node bench/search.mjs [--articles 2000]

  --articles  the size of the bench corpus that felt and Pagefind index (default 2000)`;
const { values: flags } = benchArgs(USAGE, { options: { articles: { type: 'string', default: '2000' } } });
const toolsDir = ensureTools('search');
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

await withTypeScript('bench/searchCompare.ts', async ({ compare }) => {
  const result = await compare(Number(flags.articles), toolsDir);
  const { felt, pagefind } = result;
  console.log(`\n${result.articles} articles (bench/corpus.mjs); Pagefind indexed the articles' <main> in ${pagefind.seconds.toFixed(1)} s\n`);
  console.log(`| | felt | Pagefind 1.6.0 |`);
  console.log(`|---|---|---|`);
  console.log(`| index on disk | ${kb(felt.indexOnDisk)} in ${felt.files} files | ${kb(pagefind.indexOnDisk)} in ${pagefind.files} files |`);
  console.log(`| code, first query | ${kb(felt.rows[0].codeBytes)} | ${kb(pagefind.rows[0].codeBytes)} |`);
  for (let i = 0; i < felt.rows.length; i++) {
    const f = felt.rows[i];
    const p = pagefind.rows[i];
    const top = (row) => (row.top.length ? row.top.map((t) => t.replace(/\|/g, '/')).join('; ') : '(none)');
    console.log(`| “${f.query}”: index bytes | ${kb(f.indexBytes)} | ${kb(p.indexBytes)} |`);
    console.log(`| “${f.query}”: results, top 3 | ${f.results}: ${top(f)} | ${p.results}: ${top(p)} |`);
  }
});
