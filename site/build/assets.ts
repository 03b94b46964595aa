/**
 * The browser assets: the client runtime and its lazily loaded chunks, and
 * the stylesheet, bundled, minified and content-hashed by esbuild.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { CLIENT_DIR, STYLES_DIR } from '../core/paths.ts';
import { FeltError } from '../core/errors.ts';

export interface BuiltAssets {
  js: string;
  css: string;
  /** Every file written, relative to the output folder. */
  files: string[];
}

export async function buildAssets(outDir: string): Promise<BuiltAssets> {
  try {
    const result = await build({
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
      logLevel: 'silent',
    });
    const outputs = Object.entries(result.metafile.outputs);
    const find = (entry: string, ext: string) => {
      const hit = outputs.find(([file, meta]) => file.endsWith(ext) && meta.entryPoint?.endsWith(entry));
      if (!hit) throw new Error(`esbuild wrote no ${ext} for ${entry}`);
      return '/' + path.relative(outDir, path.resolve(hit[0])).split(path.sep).join('/');
    };
    return {
      js: find('main.tsx', '.js'),
      css: find('main.css', '.css'),
      files: outputs.map(([file]) => path.relative(outDir, path.resolve(file)).split(path.sep).join('/')),
    };
  } catch (error) {
    throw new FeltError('ASSETS_FAILED', `bundling the browser code failed: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'fix the error in site/client or site/styles',
      cause: error,
    });
  }
}
