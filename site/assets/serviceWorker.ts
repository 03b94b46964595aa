/**
 * /sw.js: site/client/sw/sw.ts bundled on its own, with the build hash (its
 * cache name, so a new build retires old caches) and the offline page.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { CLIENT_DIR } from '../../shared/paths.ts';
import { FeltError } from '../../shared/errors.ts';
import { escapeHtml } from '../render/document.ts';

export interface OfflinePage {
  lang: string;
  title: string;
  message: string;
}

export async function serviceWorkerSource(buildHash: string, offline: OfflinePage): Promise<string> {
  const html = `<!doctype html><html lang="${escapeHtml(offline.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(offline.title)}</title></head><body><main><h1>${escapeHtml(offline.title)}</h1><p>${escapeHtml(offline.message)}</p><p><a href="/">/</a></p></main></body></html>`;
  try {
    const result = await build({
      entryPoints: [path.join(CLIENT_DIR, 'sw', 'sw.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: ['es2020'],
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
      define: { FELT_BUILD: JSON.stringify(buildHash), FELT_OFFLINE_HTML: JSON.stringify(html) },
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    throw new FeltError('ASSETS_FAILED', `bundling the service worker failed: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'fix the error in site/client/sw/sw.ts',
      cause: error,
    });
  }
}
