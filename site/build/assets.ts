/**
 * The browser assets: the client runtime and its lazily loaded chunks, and
 * the stylesheet, bundled, minified and content-hashed by esbuild.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { CLIENT_DIR, FELT_ROOT, STYLES_DIR } from '../core/paths.ts';
import { FeltError } from '../core/errors.ts';

export interface BuiltAssets {
  js: string;
  css: string;
  /** Chunks the entry imports statically: preloaded with it instead of after it. */
  preload: string[];
  /** Every file to write, relative to the output folder. */
  files: { path: string; contents: Uint8Array }[];
}

/** Bundles in memory; the caller writes the files (never in place over a previous build's). */
export async function buildAssets(outDir: string): Promise<BuiltAssets> {
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
    return {
      js: url(entryFile),
      css: url(find('main.css', '.css')[0]),
      preload: entry.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => url(i.path)),
      files: result.outputFiles.map((file) => ({ path: path.relative(outDir, file.path).split(path.sep).join('/'), contents: file.contents })),
    };
  } catch (error) {
    throw new FeltError('ASSETS_FAILED', `bundling the browser code failed: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'fix the error in site/client or site/styles',
      cause: error,
    });
  }
}
