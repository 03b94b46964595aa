/**
 * felt's search index beside Pagefind's (issue 18), on the bench corpus
 * (bench/corpus.mjs): both index the same built site; the sizes on disk are
 * summed from the files; the bytes per query are the responses Chromium gets
 * from `felt serve` for it, each counted as gzip -9 of its body (Pagefind's
 * files are gzipped already: counted as they are). Every response goes
 * through page.route(), so nothing comes from the browser's cache.
 * Run by bench/search.mjs, which installs Pagefind into scripts/tools/search/.
 */
import { readdir, stat, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeCorpus } from './corpus.mjs';
import { buildSite } from '../site/build/build.ts';
import { startServer } from '../site/serve/server.ts';
import { launchChromium } from '../tests/support/chromium.ts';

export const QUERIES = ['bankroll', 'bankrol', 'tournament discipline', 'varience', 'hedg', 'closing line value'];

interface PagefindApi {
  createIndex(config: object): Promise<{
    index: {
      addDirectory(dir: { path: string; glob?: string }): Promise<{ page_count: number }>;
      writeFiles(options: { outputPath: string }): Promise<unknown>;
    };
  }>;
  close(): Promise<unknown>;
}

export interface EngineRow {
  query: string;
  /** Bytes of index data received for the query (compressed, as sent). */
  indexBytes: number;
  /** Bytes of code received the first time (the search chunks; Pagefind's script and WebAssembly). */
  codeBytes: number;
  results: number | string;
  top: string[];
}

export interface Comparison {
  articles: number;
  felt: { indexOnDisk: number; files: number; rows: EngineRow[] };
  pagefind: { indexOnDisk: number; files: number; rows: EngineRow[]; seconds: number };
}

async function folderSize(dir: string, skip: (relative: string) => boolean = () => false): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (skip(path.relative(dir, full))) continue;
    bytes += (await stat(full)).size;
    files++;
  }
  return { bytes, files };
}

export async function compare(articles: number, toolsDir: string): Promise<Comparison> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'felt-search-bench-'));
  const content = path.join(work, 'content');
  const dist = path.join(work, 'dist');
  try {
    await writeCorpus(content, articles);
    await buildSite({ contentDir: content, outDir: dist, incremental: false });

    const pagefind = (await import(pathToFileURL(path.join(toolsDir, 'node_modules', 'pagefind', 'lib', 'index.js')).href)) as PagefindApi;
    const started = Date.now();
    const { index } = await pagefind.createIndex({
      rootSelector: 'main',
      excludeSelectors: ['.breadcrumbs', '.toc', '.copy-link', '.tags', '.translations', '.author-box', '.related', '.sponsored'],
    });
    await index.addDirectory({ path: dist, glob: 'articles/**/*.html' });
    await index.writeFiles({ outputPath: path.join(dist, 'pagefind') });
    await pagefind.close();
    const seconds = (Date.now() - started) / 1000;

    // Pagefind's index without its script, WebAssembly and UI files; felt's without the results page.
    const pagefindIndex = await folderSize(path.join(dist, 'pagefind'), (f) => /\.(js|css|pagefind)$/.test(f));
    const feltIndex = await folderSize(path.join(dist, 'search'), (f) => f === 'index.html');

    const server = await startServer({ root: dist, port: 0 });
    // Pagefind compiles WebAssembly, which felt's Content-Security-Policy (script-src 'self') refuses; a site using it would add 'wasm-unsafe-eval'.
    const browser = await launchChromium({ bypassCSP: true, serviceWorkers: 'block' });
    try {
      const feltRows: EngineRow[] = [];
      const pagefindRows: EngineRow[] = [];
      for (const query of QUERIES) {
        feltRows.push(await measure(browser.context, server.url, query, 'felt'));
        pagefindRows.push(await measure(browser.context, server.url, query, 'pagefind'));
      }
      return {
        articles,
        felt: { indexOnDisk: feltIndex.bytes, files: feltIndex.files, rows: feltRows },
        pagefind: { indexOnDisk: pagefindIndex.bytes, files: pagefindIndex.files, rows: pagefindRows, seconds },
      };
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

type Context = Awaited<ReturnType<typeof launchChromium>>['context'];

async function measure(context: Context, origin: string, query: string, engine: 'felt' | 'pagefind'): Promise<EngineRow> {
  const page = await context.newPage();
  const received: { url: string; bytes: number }[] = [];
  // Every response passes through here: its size is counted the same way for both engines (gzip -9 of
  // the body, or the body itself when that is smaller: Pagefind's files are gzipped already), and
  // Pagefind's worker is served without the site's Content-Security-Policy, which refuses WebAssembly.
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    received.push({ url: new URL(route.request().url()).pathname, bytes: Math.min(body.length, gzipSync(body, { level: 9 }).length) });
    const headers = { ...response.headers() };
    delete headers['content-security-policy'];
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: response.status(), headers, body });
  });
  let results: number | string;
  let top: string[];
  if (engine === 'felt') {
    await page.goto(`${origin}/search?q=${encodeURIComponent(query)}`);
    await page.waitForSelector('.search-page-list a, .search-empty', { timeout: 30_000 });
    top = (await page.locator('.search-page-list a').allInnerTexts()).slice(0, 3);
    results = await page.locator('.search-page-status').innerText();
  } else {
    await page.goto(`${origin}/sitemap`);
    const found = await page.evaluate(
      async ({ q, script }) => {
        const pf = (await import(script)) as {
          search(q: string): Promise<{ results: { data(): Promise<{ meta: { title?: string } }> }[] }>;
        };
        const search = await pf.search(q);
        // A results page shows ten: their fragments are what it fetches.
        const shown = await Promise.all(search.results.slice(0, 10).map((r) => r.data()));
        return { count: search.results.length, titles: shown.map((d) => d.meta.title ?? '') };
      },
      { q: query, script: '/pagefind/pagefind.js' },
    );
    results = found.count;
    top = found.titles.slice(0, 3);
  }
  await page.waitForTimeout(300);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.close();
  // Pagefind's WebAssembly is /pagefind/wasm.{language}.pagefind.
  const isCode = (url: string) => url.endsWith('.js') || /\/wasm\.[\w-]+\.pagefind$/.test(url) || url.endsWith('pagefind-entry.json');
  // felt's code: the chunks the results page loads beyond the runtime every page has (the search code and React).
  const ours = (url: string) =>
    engine === 'felt' ? url.startsWith('/search/') || (url.startsWith('/assets/chunks/') && !url.includes('/header-')) : url.startsWith('/pagefind/');
  const mine = received.filter((r) => ours(r.url));
  return {
    query,
    indexBytes: mine.filter((r) => !isCode(r.url)).reduce((sum, r) => sum + r.bytes, 0),
    codeBytes: mine.filter((r) => isCode(r.url)).reduce((sum, r) => sum + r.bytes, 0),
    results,
    top,
  };
}
