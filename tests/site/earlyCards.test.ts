/**
 * Issue 13: a cold build's share cards are drawn on a thread of their own
 * from the start of `felt build`, while the build's thread loads the content
 * and the render worker waits for pages (site/pictures/earlyCards.ts); the
 * cover stage takes them by their SVG instead of drawing them again, and
 * they are the very bytes it would have made. The settings files are read
 * as the settings loader reads them: a site.json the loader accepts gets its
 * cards drawn early, and one it refuses without opening (a FIFO) never holds
 * up the build.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../site/content/loadContent.ts';
import { loadMessages } from '../../site/i18n/loadMessages.ts';
import { buildSiteModel } from '../../site/model/siteModel.ts';
import { startCovers } from '../../site/pictures/coverStage.ts';
import { possibleCardSvgs, startEarlyCards, takeEarlyCard } from '../../site/pictures/earlyCards.ts';
import { shareCard } from '../../site/pictures/rasterise.ts';
import { cleanEnv, runFelt } from '../support/cli.ts';
import { FIXTURE_SITE } from './helpers.ts';

/** A copy of the fixture site in a folder of its own: its .felt-cache (beside content/) is this test's. */
function freshSite(): string {
  const content = path.join(mkdtempSync(path.join(os.tmpdir(), 'felt-early-cards-')), 'content');
  cpSync(FIXTURE_SITE, content, { recursive: true });
  return content;
}

describe('share cards drawn early', () => {
  it('are not drawn when the image cache is there to read them from', async () => {
    const content = freshSite();
    mkdirSync(path.join(path.dirname(content), '.felt-cache', 'images'), { recursive: true });
    expect(await startEarlyCards(content)).toBe(false);
    expect(takeEarlyCard((await possibleCardSvgs(content))[0]!)).toBeUndefined();
  });

  it('are the bytes the cover stage makes, and the cover stage takes them instead of drawing its own', async () => {
    const content = freshSite();
    const svgs = await possibleCardSvgs(content);
    // Two variants of each of the categories' subcategories, and the site's card.
    expect(svgs.length).toBeGreaterThan(3);
    expect(await startEarlyCards(content)).toBe(true);
    // The early thread's own bytes for one card, taken before the cover stage runs: what shareCard makes here. (The
    // cover stage draws a card again when the thread's fails, so the comparison below alone would not see a thread
    // that fails: this one does.)
    const early = await takeEarlyCard(svgs[0]!);
    expect(Buffer.compare(early!, (await shareCard(svgs[0]!)).bytes)).toBe(0);

    const model = buildSiteModel(await loadContent(content), { messages: await loadMessages(), now: new Date('2026-11-21T12:00:00Z') });
    const written = new Map<string, Uint8Array>();
    const counts = await startCovers(model, { record: () => undefined, write: (file, bytes) => void written.set(file, bytes as Uint8Array) }).finish();
    const cards = [...written.keys()].filter((file) => file.endsWith('.jpg'));
    expect(cards).toContain('images/site-card.jpg');
    expect(counts.made).toBe(cards.length);

    // Every card the site shows was taken from the early thread: none is left to take. The others were dropped.
    for (const svg of svgs) expect(takeEarlyCard(svg)).toBeUndefined();
    // And each is what this thread draws from the same SVG: the site's card is the last of the possible ones.
    const siteCard = await shareCard(svgs.at(-1)!);
    expect(Buffer.compare(Buffer.from(written.get('images/site-card.jpg')!), siteCard.bytes)).toBe(0);
  });

  it('are drawn from a site.json saved with a byte-order mark, which the settings loader accepts', async () => {
    // Windows editors save UTF-8 with a BOM; the loader allows it (jsonSource.ts), JSON.parse alone does not.
    const content = freshSite();
    const site = path.join(content, 'site.json');
    writeFileSync(site, `\uFEFF${readFileSync(site, 'utf8')}`);
    const svgs = await possibleCardSvgs(content);
    expect(svgs.length).toBeGreaterThan(3);
    // The site's card, from site.json's brand, is the last.
    expect(svgs.at(-1)).toBe((await possibleCardSvgs(freshSite())).at(-1));
  });

  it('are not drawn from a site.json the loader refuses, and a cold build says why at once (a FIFO is never opened)', async () => {
    const content = freshSite();
    const site = path.join(content, 'site.json');
    rmSync(site);
    const made = spawnSync('mkfifo', [site]);
    expect(made.status, String(made.stderr)).toBe(0);
    // A cold build (no output yet) starts the early thread's reading first: opening a FIFO would wait for a writer.
    const build = await runFelt(['build', '--content', content, '--out', path.join(path.dirname(content), 'dist')], {
      env: cleanEnv(),
      timeoutMs: 30_000,
    });
    expect(build.signal).toBeNull();
    expect(build.code).toBe(1);
    expect(build.stderr).toMatch(/site\.json: is a named pipe \(FIFO\), not a file/);
    expect(await possibleCardSvgs(content)).toEqual([]);
  }, 60_000);
});
