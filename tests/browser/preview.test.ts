/**
 * Issue 12, item 4: `felt preview` as an operator reads it. The dev bucket
 * (on the loopback GCS server, real client) holds a new article, a changed
 * version of a published one and an unchanged copy of another; the preview
 * marks the first two on their cards and pages, lists them on /preview/,
 * leaves content/ as it was and builds nowhere near dist/.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewResult } from '../../cli/preview.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { openBucket, putArticle, quiet } from '../cli/editorial/helpers.ts';

let gcs: FakeGcs;
let server: RunningServer;
let browser: Browser;
let result: PreviewResult;
let contentDir: string;
let before: string;

async function digestOf(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).sort(
    (a, b) => a.parentPath.localeCompare(b.parentPath) || a.name.localeCompare(b.name),
  )) {
    const full = path.join(entry.parentPath, entry.name);
    hash.update(full);
    if (entry.isFile()) hash.update(await readFile(full));
  }
  return hash.digest('hex');
}

beforeAll(async () => {
  gcs = await startFakeGcs();
  contentDir = await fixtureCopy();
  const choice = { storage: 'gcs', apiEndpoint: gcs.url };
  const dev = await openBucket(contentDir, choice, 'dev');
  await putArticle(dev, 'fresh-draft', 'Fresh Draft', { date: '2026-06-01' });
  const published = await readFile(path.join(contentDir, 'articles', 'en_US', 'poker-basics.md'), 'utf8');
  await dev.write('articles/en_US/poker-basics.md', Buffer.from(published.replace('Poker rewards patience.', 'Poker rewards patience, and revision.')), {
    contentType: 'text/markdown; charset=utf-8',
  });
  await dev.write('articles/en_US/first-steps.md', await readFile(path.join(contentDir, 'articles', 'en_US', 'first-steps.md')), {
    contentType: 'text/markdown',
  });
  before = await digestOf(contentDir);
  const outDir = path.join(await tempDir(), 'preview');
  result = await preview({ contentDir, outDir, storage: choice, reporter: quiet().reporter });
  server = await startServer({ root: outDir, port: 0 });
  browser = await launchChromium({ serviceWorkers: 'block' });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await gcs?.close();
});

describe('felt preview', () => {
  it('builds from production plus the dev articles without touching content/', async () => {
    expect(await digestOf(contentDir)).toBe(before);
    expect(result.build.drafts).toEqual([
      { slug: 'fresh-draft', title: 'Fresh Draft', draft: 'new' },
      { slug: 'poker-basics', title: 'Poker Basics', draft: 'changed' },
    ]);
    expect(result.build.origins).toEqual({ production: result.build.articles - 2, dev: 2 });
  });

  it('marks new and changed articles on their cards and pages, and not the others', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/`);
    const card = page.locator('.card', { has: page.getByRole('link', { name: 'Fresh Draft' }) }).first();
    await expect(card.locator('.draft-badge').innerText()).resolves.toMatch(/draft/i);
    expect(await card.locator('.draft-badge').isVisible()).toBe(true);

    await page.goto(`${server.url}/articles/poker-basics`);
    expect(await page.locator('.article-header .draft-badge').innerText()).toMatch(/changed/i);
    expect(await page.locator('.article-body').innerText()).toContain('Poker rewards patience, and revision.');

    await page.goto(`${server.url}/articles/first-steps`);
    expect(await page.locator('.draft-badge').count()).toBe(0);
    await page.close();
  });

  it('lists what would be published on /preview/, each linking to its page', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/preview/`);
    expect(await page.locator('h1').innerText()).toBe('What would be published');
    const items = page.locator('.preview-list li');
    expect(await items.allInnerTexts()).toEqual([expect.stringMatching(/^Draft\s+Fresh Draft/i), expect.stringMatching(/^Changed\s+Poker Basics/i)]);
    await page.getByRole('link', { name: 'Fresh Draft' }).click();
    await page.waitForURL(`${server.url}/articles/fresh-draft`);
    expect(await page.locator('h1').innerText()).toBe('Fresh Draft');
    await page.close();
  });
});
