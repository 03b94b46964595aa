/**
 * Issue 13: a cold build's share cards (85 rasters on the bundled categories,
 * 0.6 s of CPU) are made on libuv's threads while the pages render, not
 * after them: the build starts the cover stage before its pages
 * (site/pictures/coverStage.ts, startCovers) and collects the rasters at the
 * end; the SVG covers are drawn by the render threads beside their pages
 * (takeSvgs, site/build/renderBatch.ts), not by the build's thread after
 * the last page.
 */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../site/content/loadContent.ts';
import { loadMessages } from '../../site/i18n/loadMessages.ts';
import { buildSiteModel } from '../../site/model/siteModel.ts';
import { startCovers } from '../../site/pictures/coverStage.ts';
import { svgCoverFile } from '../../site/pictures/svgCover.ts';
import { FIXTURE_SITE } from './helpers.ts';

describe('the cover stage', () => {
  it('makes the share cards before it is asked to finish, and the SVG covers when it is', async () => {
    const model = buildSiteModel(await loadContent(FIXTURE_SITE), { messages: await loadMessages(), now: new Date('2026-11-21T12:00:00Z') });
    const written = new Map<string, string | Uint8Array>();
    const versions = new Map<string, string>();
    const covers = startCovers(model, { record: (file, version) => void versions.set(file, version), write: (file, bytes) => written.set(file, bytes) });

    // Every file's version is known at once: the manifest does not wait for the pictures.
    const svgFiles = [...new Set(model.articles.map((a) => model.coverOf(a).path.slice(1)))];
    for (const file of svgFiles) expect(versions.has(file), file).toBe(true);
    expect(covers.busy()).toBe(true);

    // The cards are made while the caller does other work (the pages), without finish().
    const deadline = Date.now() + 20_000;
    while (covers.busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(covers.busy()).toBe(false);
    const cards = [...written.keys()].filter((file) => file.endsWith('.jpg'));
    expect(cards).toContain('images/site-card.jpg');
    expect(cards.length).toBeGreaterThan(1);
    for (const file of svgFiles) expect(written.has(file), file).toBe(false);

    const counts = await covers.finish();
    expect(counts).toMatchObject({ made: cards.length, drawn: svgFiles.length });
    for (const file of svgFiles) expect(String(written.get(file))).toMatch(/^<svg /);
  });

  it('makes nothing the reused release has in that version, and each file whose version differs', async () => {
    const model = buildSiteModel(await loadContent(FIXTURE_SITE), { messages: await loadMessages(), now: new Date('2026-11-21T12:00:00Z') });
    const first = new Map<string, string>();
    await startCovers(model, { record: (file, version) => void first.set(file, version), write: () => undefined }).finish();

    // The release has every file in its version but one cover and one card (as a moved article or a new picture would).
    const changedSvg = model.coverOf(model.articles[0]!).path.slice(1);
    const changedCard = [...first.keys()].find((file) => file.endsWith('.jpg'))!;
    const written: string[] = [];
    const covers = startCovers(model, {
      record: (file, version) => first.get(file) === version && file !== changedSvg && file !== changedCard,
      write: (file) => void written.push(file),
    });
    const counts = await covers.finish();
    expect(written.sort()).toEqual([changedCard, changedSvg].sort());
    expect(counts).toMatchObject({ made: 1, drawn: 1 });
  });

  it('hands its SVG covers to whoever renders the pages: each is the file finish() would have written, and finish() then writes none', async () => {
    const model = buildSiteModel(await loadContent(FIXTURE_SITE), { messages: await loadMessages(), now: new Date('2026-11-21T12:00:00Z') });
    const byStage = new Map<string, string | Uint8Array>();
    await startCovers(model, { record: () => undefined, write: (file, bytes) => byStage.set(file, bytes) }).finish();

    const written = new Map<string, string | Uint8Array>();
    const covers = startCovers(model, { record: () => undefined, write: (file, bytes) => written.set(file, bytes) });
    const taken = covers.takeSvgs();
    const shown = new Set(model.articles.map((a) => model.coverOf(a).path));
    expect(taken.map((cover) => cover.path).sort()).toEqual([...shown].sort());
    expect(covers.takeSvgs()).toEqual([]);
    const counts = await covers.finish();
    expect(counts.drawn).toBe(shown.size);
    expect([...written.keys()].filter((file) => file.endsWith('.svg'))).toEqual([]);
    for (const cover of taken) {
      const file = svgCoverFile(cover);
      expect(file.content, file.path).toBe(byStage.get(file.path));
    }
  });

  it('is settled only when no raster can write any more: a failed build removes its staging folder after the last write (a full disk)', async () => {
    const model = buildSiteModel(await loadContent(FIXTURE_SITE), { messages: await loadMessages(), now: new Date('2026-11-21T12:00:00Z') });
    let settled = false;
    const lateWrites: string[] = [];
    let cards = 0;
    const covers = startCovers(model, {
      record: () => undefined,
      write: (file) => {
        if (settled) lateWrites.push(file);
        // The first card meets a full disk; the cards queued behind it still come.
        if (file.endsWith('.jpg') && cards++ === 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    });
    await expect(covers.finish()).rejects.toThrow(/ENOSPC/);
    await covers.settled();
    settled = true;
    // Whatever was still queued had its turn before settled() resolved.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(cards).toBeGreaterThan(1);
    expect(lateWrites).toEqual([]);
  });
});
