// Issue #5's weight targets measured on a built site: the compressed bytes an
// article page loads before any interaction, and the worst compressed bytes
// one search query fetches, using the browser's own search engine.
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { benchArgs } from './args.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const gz = (data) => gzipSync(data, { level: 9 }).length;

/** HTML, stylesheet, the static query file, the module graph of the entry script (static imports only) and the prefetched islands. */
export async function articlePageWeight(outDir) {
  const articles = await readdir(path.join(outDir, 'articles'));
  const html = await readFile(path.join(outDir, 'articles', articles[0], 'index.html'), 'utf8');
  let total = gz(html);
  const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)[1];
  const sq = /<link rel="preload" href="([^"]+)" as="fetch"/.exec(html)[1];
  total += gz(await readFile(path.join(outDir, css)));
  total += gz(await readFile(path.join(outDir, sq)));
  const seen = new Set();
  const visit = async (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    const code = await readFile(path.join(outDir, url), 'utf8');
    total += gz(code);
    // Static imports only: `import"./x.js"` and `…from"./x.js"`; dynamic import("…") loads later, on use.
    for (const m of code.matchAll(/(?:^|[;\s}])(?:import|from)\s*"(\.{1,2}\/[^"]+\.js)"/g)) await visit(path.posix.join(path.posix.dirname(url), m[1]));
  };
  await visit(/<script type="module" src="([^"]+)"/.exec(html)[1]);
  // The islands' code (React included) runs on the first interaction, but the runtime
  // prefetches it once the page has loaded: it counts as loaded before any interaction.
  const islands = /data-islands="([^"]+)"/.exec(html)?.[1].split(' ') ?? [];
  for (const url of islands) await visit(url);
  return total;
}

const QUERIES = ['bankroll', 'odds edge', 'poker', 'the', 'value line', 'zzqx', 'session record discipline', 'tilt', 'risk reward', 'handicap spread'];

/** Runs queries through site/client/search/engine.ts against the built files, counting gzip bytes fetched. */
export async function searchQueryCost(outDir) {
  const bundle = path.join(os.tmpdir(), `felt-search-engine-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(ROOT, 'site/client/search/engine.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    logLevel: 'silent',
  });
  const { SearchEngine } = await import(pathToFileURL(bundle).href);
  await rm(bundle, { force: true });
  let worst = 0;
  for (const query of QUERIES) {
    let bytes = 0;
    const engine = new SearchEngine('/search/manifest.json', async (url) => {
      const text = await readFile(path.join(outDir, url));
      bytes += gz(text);
      return JSON.parse(text.toString('utf8'));
    });
    await engine.search(query);
    worst = Math.max(worst, bytes);
  }
  return worst;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const USAGE = `usage: node bench/weights.mjs <dir>

  Prints an article page's compressed bytes before any interaction, and the worst compressed bytes one search
  query fetches, of the site built in <dir> (felt build's output folder).`;
  const { positionals } = benchArgs(USAGE, { allowPositionals: true });
  if (positionals.length !== 1) {
    console.error(`give one built site's folder\n\n${USAGE}`);
    process.exit(2);
  }
  const [dir] = positionals;
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`bench/weights.mjs: ${dir} is not a folder: give a built site's (felt build --out)`);
    process.exit(2);
  }
  console.log({ articlePage: await articlePageWeight(dir), searchWorst: await searchQueryCost(dir) });
}
