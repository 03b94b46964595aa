/**
 * Issue 18 item 7 in Chromium, at 375 and 1280 px: the article's cover and
 * the first cards' covers show (the generated SVG, served by `felt serve` as
 * image/svg+xml), their boxes are reserved so nothing moves when they arrive
 * (no layout shift), and covers below the fold are not fetched until the
 * reader scrolls to them. The og:image a crawler follows is a shared card
 * (issue 13), served as a JPEG.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, startSite, until, type Site } from './helpers.ts';
import { COVER_HEIGHT, COVER_WIDTH } from '../../site/pictures/coverSizes.ts';

let site: Site;

beforeAll(async () => {
  site = await startSite({ serviceWorkers: 'block' });
});

afterAll(async () => {
  await site?.close();
});

const ARTICLE = '/articles/bankroll-management-bet-sizing';

/** Covers the page has asked the server for so far. */
function watchCovers(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/images/covers/')) asked.push(url.pathname);
  });
  return asked;
}

/** The Content-Type each cover arrived with, by path. */
function coverTypes(page: Page): Map<string, string> {
  const types = new Map<string, string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/images/covers/')) types.set(url.pathname, response.headers()['content-type'] ?? '');
  });
  return types;
}

/** The layout shift the page has had (CLS's raw sum), from the browser's own record. */
async function layoutShift(page: Page): Promise<{ sum: number; sources: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ sum: number; sources: string[] }>((resolve) => {
        let sum = 0;
        const sources: string[] = [];
        const label = (node: Node | null) =>
          node instanceof Element
            ? `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.className ? `.${String(node.className).split(' ').join('.')}` : ''}`
            : String(node?.nodeName);
        new PerformanceObserver((list) => {
          type Shift = PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
          };
          for (const entry of list.getEntries() as Shift[]) {
            if (entry.hadRecentInput) continue;
            sum += entry.value;
            for (const source of entry.sources ?? [])
              sources.push(
                `${label(source.node)} at ${Math.round(entry.startTime)} ms: ${JSON.stringify(source.previousRect)} -> ${JSON.stringify(source.currentRect)}`,
              );
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve({ sum, sources }), 300);
      }),
  );
}

/**
 * The tests that expect no layout shift run again on a shift, twice at most. Beside the rest of npm test on both busy
 * cores, Chromium once recorded a shift of 0.000016 on the article page at 1280 px that no other run reproduced (four
 * runs beside the crash test, six loads on throttled networks): a page that moves every time still fails.
 */
const SHIFT_RETRY = { retry: 2 };

/** No layout shift; the failure names what moved, where and when. */
async function expectNoShift(page: Page, what: string): Promise<void> {
  const { sum, sources } = await layoutShift(page);
  expect(sum, `${what} moved: ${sources.join('; ')}`).toBe(0);
}

/** The first cover boxes of a page whose cover files never arrive: each must already have the cover's 1200:630 shape. */
async function reservedBoxes(pagePath: string, selector: string, width: number): Promise<{ width: number; height: number }[]> {
  const page = await site.browser.context.newPage();
  await page.setViewportSize({ width, height: 800 });
  await page.route('**/images/covers/**', (route) => route.abort());
  await page.goto(site.url + pagePath);
  const boxes = await page
    .locator(selector)
    .evaluateAll((images) => images.slice(0, 3).map((img) => ({ width: img.getBoundingClientRect().width, height: img.getBoundingClientRect().height })));
  await page.close();
  return boxes;
}

/** A cover's box has the cover's shape (COVER_WIDTH:COVER_HEIGHT) to within a pixel and a half. */
function expectCoverShape(box: { width: number; height: number }, what?: string): void {
  expect(box.width, what).toBeGreaterThan(0);
  expect(Math.abs(box.height - (box.width * COVER_HEIGHT) / COVER_WIDTH), what).toBeLessThan(1.5);
}

/** reservedBoxes() found boxes, each of the cover's shape. */
function expectReserved(boxes: { width: number; height: number }[], what: string): void {
  expect(boxes.length, what).toBeGreaterThan(0);
  for (const box of boxes) expectCoverShape(box, what);
}

/** What a cover <img> shows: its file, its natural width, its box. */
function shown(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => {
      const box = img.getBoundingClientRect();
      return {
        src: new URL(img.currentSrc).pathname,
        complete: img.complete,
        naturalWidth: img.naturalWidth,
        width: box.width,
        height: box.height,
        top: box.top,
      };
    });
}

describe.each([375, 1280])('covers at %i px', (width) => {
  it('shows the article cover at once, in its reserved box, without moving the page', SHIFT_RETRY, async () => {
    const page = await site.browser.context.newPage();
    await page.setViewportSize({ width, height: 800 });
    const asked = watchCovers(page);
    const types = coverTypes(page);
    await page.goto(site.url + ARTICLE);
    await page.waitForLoadState('networkidle');
    const cover = await shown(page, '.article-cover img');
    // The generated cover is its SVG: one file that scales to every box.
    // Its subcategory's variant (site/pictures/drawnCovers.ts).
    expect(cover.src).toMatch(/^\/images\/covers\/[a-z0-9-]+\/[a-z0-9-]+-\d+\.svg$/);
    expect(types.get(cover.src)).toBe('image/svg+xml');
    expect(cover.complete && cover.naturalWidth).toBe(1200);
    expect(cover.width).toBeGreaterThan(width / 2);
    expectCoverShape(cover);
    expect(cover.top).toBeLessThan(800 * 1.5);
    await expectNoShift(page, ARTICLE);
    expectReserved(await reservedBoxes(ARTICLE, '.article-cover img', width), 'the article cover, its file not arrived');
    // The related articles' covers, below the fold, wait for the reader.
    const related = await page.locator('.related .card-cover img').count();
    expect(related).toBeGreaterThan(0);
    expect(asked.filter((p) => p !== cover.src)).toEqual([]);
    await page.locator('.related').scrollIntoViewIfNeeded();
    await until(
      async () =>
        await page
          .locator('.related .card-cover img')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      'a related cover',
    );
    expect(asked.some((p) => p !== cover.src)).toBe(true);
    await page.close();
  });

  it('shows covers on the cards of home and a listing, the first at once', SHIFT_RETRY, async () => {
    for (const [path, selector] of [
      ['/', '.card-lead .card-cover img'],
      ['/betting-strategies', '.card-grid .card-cover img'],
    ] as const) {
      const page = await open(site, path, width, { wake: false });
      await page.waitForLoadState('networkidle');
      const first = await shown(page, selector);
      expect(first.src, path).toMatch(/^\/images\/covers\/[a-z0-9-]+\/[a-z0-9-]+-\d+\.svg$/);
      expect(first.complete && first.naturalWidth > 0, path).toBe(true);
      expectCoverShape(first, path);
      await expectNoShift(page, path);
      expectReserved(await reservedBoxes(path, selector, width), `${path}, the cover files not arrived`);
      // Every card has one.
      expect(await page.locator('main .card:not(:has(.card-cover))').count(), path).toBe(0);
      await page.close();
    }
  });
});

describe('share cards', () => {
  it("serves the article's og:image, its subcategory's shared card, as a 1200 × 630 JPEG", async () => {
    const page = await site.browser.context.newPage();
    await page.goto(site.url + ARTICLE);
    const card = new URL((await page.locator('meta[property="og:image"]').getAttribute('content'))!).pathname;
    expect(card).toMatch(/^\/images\/cards\/[a-z0-9-]+\/[a-z0-9-]+-\d+\.jpg$/);
    expect(await page.locator('meta[name="twitter:image"]').getAttribute('content')).toContain(card);
    const response = await page.goto(site.url + card);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-type']).toBe('image/jpeg');
    const size = await page.locator('img').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(size).toEqual([1200, 630]);
    await page.close();
  });
});
