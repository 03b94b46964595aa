/**
 * /sw.js: site/client/sw/sw.ts bundled on its own, with the build hash (its
 * cache name, so a new build retires old caches) and the offline page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../shared/atomicWrite.ts';
import { CACHE_FOLDER, CLIENT_DIR, FELT_ROOT } from '../../shared/paths.ts';
import { FeltError } from '../../shared/errors.ts';
import { digestPieces } from '../../shared/digest.ts';
import { escapeHtml } from '../render/document.ts';
import { CONTENT_SECURITY_POLICY_META } from '../render/securityPolicy.ts';
import { feltCodeVersion } from '../build/codeVersion.ts';

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
  return `<!doctype html><html lang="${e(offline.lang)}"><head><meta charset="utf-8">${CONTENT_SECURITY_POLICY_META}<meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(offline.heading)} | ${e(offline.site)}</title><link rel="stylesheet" href="${e(offline.stylesheet)}"></head><body><header class="site-header"><div class="header-bar"><a class="logo" href="/"><span class="logo-title">${e(offline.site)}</span></a></div></header><main id="main" class="main"><div class="error-page"><h1>${e(offline.heading)}</h1><p>${e(offline.message)}</p><p class="error-actions"><a class="button" href="/">${e(offline.home)}</a></p></div></main></body></html>`;
}

const WORKER_ENTRY = path.join(CLIENT_DIR, 'sw', 'sw.ts');

/**
 * The worker's script, bundled once per set of inputs: a night's builds (one per locale, each its own process)
 * would otherwise each start esbuild for the same few kilobytes. Kept in .felt-cache/assets/ beside the client
 * bundle, keyed by felt's code (the bundling options, esbuild's version), the worker's source, the build hash
 * and the offline page, so a hit is byte for byte what bundling would give.
 */
export async function serviceWorkerSource(buildHash: string, offline: OfflinePage): Promise<string> {
  const html = offlineHtml(offline);
  const source = readFileSync(WORKER_ENTRY);
  const key = digestPieces([feltCodeVersion(), source, buildHash, '\0', html]);
  const file = path.join(FELT_ROOT, CACHE_FOLDER, 'assets', `sw-${key}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // Not bundled yet for these inputs.
  }
  const script = await bundleServiceWorker(buildHash, html);
  try {
    writeFileAtomicSync(file, script);
  } catch {
    // A read-only install still builds; it just bundles every time.
  }
  return script;
}

async function bundleServiceWorker(buildHash: string, html: string): Promise<string> {
  // Loaded here, not with the module: a build whose worker is cached never starts esbuild.
  const { build } = await import('esbuild');
  try {
    const result = await build({
      entryPoints: [WORKER_ENTRY],
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
