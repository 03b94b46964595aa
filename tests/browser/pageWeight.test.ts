/**
 * Issue #3 item 8 and issue #5's budget: what an article page downloads
 * before any interaction (HTML, CSS, JavaScript with React, and the JSON
 * the runtime reads), measured in Chromium and compressed with real gzip
 * and brotli. The budget is 90 KB compressed.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, waitForRuntime, type Site } from './helpers.ts';

let site: Site;

beforeAll(async () => {
  site = await startSite({ serviceWorkers: 'block' });
});

afterAll(async () => {
  await site?.close();
});

const BUDGET = 90 * 1024;

describe('article page weight', () => {
  it('stays under 90 KB compressed before any interaction', async () => {
    const page = await site.browser.context.newPage();
    // No prefetch: it waits 3 s and is not part of the page.
    const bodies: { path: string; type: string; body: Buffer }[] = [];
    page.on('response', async (response) => {
      const body = await response.body().catch(() => undefined);
      if (body) bodies.push({ path: new URL(response.url()).pathname, type: response.request().resourceType(), body });
    });
    await page.goto(site.url + '/articles/bankroll-management-bet-sizing');
    await waitForRuntime(page);
    await page.waitForLoadState('networkidle');
    const rows = bodies
      .filter((b) => !b.path.startsWith('/icons/') && !b.path.endsWith('.ico'))
      .map((b) => ({
        path: b.path,
        type: b.type,
        raw: b.body.length,
        gzip: gzipSync(b.body, { level: 9 }).length,
        brotli: brotliCompressSync(b.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      }));
    const total = (key: 'raw' | 'gzip' | 'brotli', only?: string) => rows.filter((r) => !only || r.type === only).reduce((sum, r) => sum + r[key], 0);
    console.table(rows);
    console.log(
      `article page before interaction: ${total('gzip')} B gzip, ${total('brotli')} B brotli; JavaScript ${total('gzip', 'script')} B gzip, ${total('brotli', 'script')} B brotli`,
    );
    expect(rows.some((r) => r.path.includes('/chunks/search-'))).toBe(false);
    expect(total('gzip')).toBeLessThanOrEqual(BUDGET);
    await page.close();
  });
});
