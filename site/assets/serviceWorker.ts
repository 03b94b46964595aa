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
  /** The site's title, shown in the header band. */
  site: string;
  heading: string;
  message: string;
  /** The home link's text (a UI string, not "/"). */
  home: string;
  /** The site's hashed stylesheet: the worker keeps it (assets come from its cache), so the notice looks like the site. */
  stylesheet: string;
}

/** What a visitor sees offline on a page the worker never kept: the site's header band and its error-page layout. */
export function offlineHtml(offline: OfflinePage): string {
  const e = escapeHtml;
  return `<!doctype html><html lang="${e(offline.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(offline.heading)} | ${e(offline.site)}</title><link rel="stylesheet" href="${e(offline.stylesheet)}"></head><body><header class="site-header"><div class="header-bar"><a class="logo" href="/"><span class="logo-title">${e(offline.site)}</span></a></div></header><main id="main" class="main"><div class="error-page"><h1>${e(offline.heading)}</h1><p>${e(offline.message)}</p><p class="error-actions"><a class="button" href="/">${e(offline.home)}</a></p></div></main></body></html>`;
}

export async function serviceWorkerSource(buildHash: string, offline: OfflinePage): Promise<string> {
  const html = offlineHtml(offline);
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
