/**
 * The browser assets: the client runtime and its lazily loaded chunks, and
 * the stylesheet, bundled, minified and content-hashed by esbuild.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CACHE_FOLDER, CLIENT_DIR, FELT_ROOT, STYLES_DIR } from '../../shared/paths.ts';
import { writeFileAtomicSync } from '../../shared/atomicWrite.ts';
import { FeltError } from '../../shared/errors.ts';
import { digestPieces } from '../../shared/digest.ts';
import { feltCodeVersion } from '../build/codeVersion.ts';

export interface BuiltAssets {
  js: string;
  css: string;
  /** Chunks the entry imports statically: preloaded with it instead of after it. */
  preload: string[];
  /** The islands' code (React, the header, the article's buttons): prefetched once a page has loaded, run on first interaction. */
  islands: string[];
  /** Every file to write, relative to the output folder. */
  files: { path: string; contents: Uint8Array }[];
}

/**
 * The browser assets, bundled once per version of their sources: every build
 * of every site needs the same bundle, and esbuild bundling React costs more
 * than a whole incremental rebuild. Kept in .felt-cache/assets/ under felt's
 * folder; any change to the client code, styles or dependencies is a new key.
 */
export async function buildAssets(outDir: string): Promise<BuiltAssets> {
  const key = assetSourcesKey();
  const file = path.join(FELT_ROOT, CACHE_FOLDER, 'assets', `${key}.json`);
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as Omit<BuiltAssets, 'files'> & { files: { path: string; contents: string }[] };
    return { ...cached, files: cached.files.map((f) => ({ path: f.path, contents: Buffer.from(f.contents, 'base64') })) };
  } catch {
    // Not built yet for these sources.
  }
  const built = await bundleAssets(outDir);
  try {
    const data = { ...built, files: built.files.map((f) => ({ path: f.path, contents: Buffer.from(f.contents).toString('base64') })) };
    writeFileAtomicSync(file, JSON.stringify(data));
  } catch {
    // A read-only install still builds; it just bundles every time.
  }
  return built;
}

function assetSourcesKey(): string {
  return digestPieces(assetSources());
}

function* assetSources(): Generator<string | Uint8Array> {
  // felt's own code too (the bundling options live in this file), and the versions of its dependencies (React).
  yield feltCodeVersion();
  const folders = [
    CLIENT_DIR,
    path.join(FELT_ROOT, 'site', 'islands'),
    STYLES_DIR,
    path.join(FELT_ROOT, 'site', 'i18n'),
    path.join(FELT_ROOT, 'site', 'model'),
    path.join(FELT_ROOT, 'shared'),
  ];
  for (const folder of folders) {
    for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true }).sort((a, b) =>
      (a.parentPath + a.name).localeCompare(b.parentPath + b.name),
    )) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      yield full;
      yield readFileSync(full);
    }
  }
}

/** Bundles in memory; the caller writes the files (never in place over a previous build's). */
async function bundleAssets(outDir: string): Promise<BuiltAssets> {
  // Loaded here, not with the module: a build whose assets are cached never loads esbuild.
  const { build } = await import('esbuild');
  try {
    const result = await build({
      // Relative to felt's root, not the caller's folder: the same sources give
      // the same hashed names wherever felt is run from.
      absWorkingDir: FELT_ROOT,
      entryPoints: { app: path.join(CLIENT_DIR, 'main.tsx'), styles: path.join(STYLES_DIR, 'main.css') },
      outdir: path.join(outDir, 'assets'),
      entryNames: '[name]-[hash]',
      chunkNames: 'chunks/[name]-[hash]',
      assetNames: '[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      minify: true,
      jsx: 'automatic',
      tsconfig: path.join(CLIENT_DIR, 'tsconfig.json'),
      define: { 'process.env.NODE_ENV': '"production"' },
      legalComments: 'none',
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs);
    const url = (file: string) => '/' + path.relative(outDir, path.resolve(FELT_ROOT, file)).split(path.sep).join('/');
    const find = (entry: string, ext: string) => {
      const hit = outputs.find(([file, meta]) => file.endsWith(ext) && meta.entryPoint?.endsWith(entry));
      if (!hit) throw new Error(`esbuild wrote no ${ext} for ${entry}`);
      return hit;
    };
    const [entryFile, entry] = find('main.tsx', '.js');
    // A lazily imported module and the chunks it imports statically, in load order.
    const closure = (file: string, seen = new Set<string>()): string[] => {
      if (seen.has(file)) return [];
      seen.add(file);
      const meta = result.metafile.outputs[file];
      return [file, ...(meta?.imports ?? []).filter((i) => i.kind === 'import-statement' && !i.external).flatMap((i) => closure(i.path, seen))];
    };
    const islands = new Set([...closure(find('client/islands/header.tsx', '.js')[0]), ...closure(find('client/pages/article.tsx', '.js')[0])]);
    const preload = entry.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path);
    return {
      js: url(entryFile),
      css: url(find('main.css', '.css')[0]),
      preload: preload.map(url),
      islands: [...islands].filter((file) => !preload.includes(file)).map(url),
      files: result.outputFiles.map((file) => ({ path: path.relative(outDir, file.path).split(path.sep).join('/'), contents: file.contents })),
    };
  } catch (error) {
    throw new FeltError('ASSETS_FAILED', `bundling the browser code failed: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}
