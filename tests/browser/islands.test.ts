/**
 * The header and article islands in Chromium (issue #3, items 1, 2 and 6):
 * the category menu at 375 and 1280 px, by mouse and keyboard; the search
 * box and its lazily loaded chunk; the copy-link button.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, startSite, watchConsole, type Site } from './helpers.ts';

let site: Site;

beforeAll(async () => {
  site = await startSite({ serviceWorkers: 'block' });
});

afterAll(async () => {
  await site?.close();
});

const ARTICLE = '/articles/bankroll-management-bet-sizing';
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
const focusedClass = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.className ?? '');
/** The menu is a <details>: its open state is what the button's expanded state reads. */
const expanded = (page: Page) => page.evaluate(() => String((document.querySelector('.category-menu') as HTMLDetailsElement).open));

describe('category menu', () => {
  it('is a "Categories" dropdown at 1280 px', async () => {
    const page = await open(site, '/', 1280);
    const button = page.locator('.menu-button');
    expect(await button.innerText()).toBe('Categories');
    expect(await button.evaluate((el) => el.tagName)).toBe('SUMMARY');
    expect(await expanded(page)).toBe('false');
    const panel = page.locator('.category-menu > .menu-panel');
    expect(await panel.isHidden()).toBe(true);
    await button.click();
    expect(await expanded(page)).toBe('true');
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.evaluate((el) => el.tagName + ' ' + el.getAttribute('aria-label'))).toBe('NAV Categories');
    // A dropdown: under the button, inside the window (tests/browser/menu.test.ts sweeps the widths).
    const [panelBox, buttonBox] = [await panel.boundingBox(), await button.boundingBox()];
    expect(panelBox!.y).toBeGreaterThan(buttonBox!.y + buttonBox!.height - 1);
    expect(panelBox!.x + panelBox!.width).toBeLessThanOrEqual(1280);
    // Every category lists its subcategories and a "More" link to the category page.
    expect(await panel.locator('.menu-category').count()).toBe(7);
    expect(await panel.locator('.menu-category >> nth=0 >> .menu-children a').count()).toBe(7);
    expect(await panel.locator('.menu-more >> nth=0').getAttribute('href')).toBe('/betting-strategies');
    expect(await panel.locator('.menu-children a >> nth=0').getAttribute('href')).toBe('/betting-strategies/fundamental-betting-strategies');
    // Clicking outside closes it.
    await page.mouse.click(5, 700);
    expect(await expanded(page)).toBe('false');
    await page.close();
  });

  it('is a button opening a popover at 375 px; choosing an item navigates and closes it', async () => {
    const page = await open(site, '/', 375);
    const button = page.locator('.menu-button');
    expect(await page.locator('.menu-button-text').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    expect(await button.evaluate((el) => el.textContent)).toContain('Categories');
    await button.click();
    const panel = page.locator('.menu-panel');
    const box = (await panel.boundingBox())!;
    expect(box.width).toBeGreaterThan(340); // across the phone's width
    expect(await panel.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await page.locator('.menu-children a >> text=Bankroll Management').click();
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'subcategory');
    expect(new URL(page.url()).pathname).toBe('/betting-strategies/bankroll-management');
    expect(await expanded(page)).toBe('false');
    expect(await panel.isHidden()).toBe(true);
    await page.close();
  });

  it.each([375, 1280])('works from the keyboard at %i px', async (width) => {
    const page = await open(site, '/', width);
    const button = page.locator('.menu-button');
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await expanded(page)).toBe('true');
    expect(await focusedText(page)).toBe(await page.locator('.menu-panel a >> nth=0').innerText());
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe(await page.locator('.menu-panel a >> nth=1').innerText());
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focusedText(page)).toBe(await page.locator('.menu-panel a >> nth=-1').innerText());
    await page.keyboard.press('Home');
    expect(await focusedText(page)).toBe(await page.locator('.menu-panel a >> nth=0').innerText());
    await page.keyboard.press('Escape');
    expect(await expanded(page)).toBe('false');
    expect(await focusedClass(page)).toBe('menu-button');
    // Space opens it too, and Escape from the button closes it.
    await page.keyboard.press(' ');
    expect(await expanded(page)).toBe('true');
    await page.keyboard.press('Escape');
    expect(await expanded(page)).toBe('false');
    expect(await focusedClass(page)).toBe('menu-button');
    // Enter on a link follows it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const href = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).getAttribute('href'));
    await page.keyboard.press('Enter');
    await page.waitForFunction((h) => location.pathname === h, href);
    expect(await expanded(page)).toBe('false');
    await page.close();
  });
});

describe('search', () => {
  const input = (page: Page) => page.locator('.search-input');
  const results = (page: Page) => page.locator('.search-results a[href^="/articles/"]');

  it('loads its code and index only when the box is first used', async () => {
    const page = await site.browser.context.newPage();
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(site.url + '/');
    await page.waitForFunction(() => document.documentElement.dataset.feltReady === 'true');
    await page.waitForTimeout(300);
    expect(fetched.filter((p) => p.startsWith('/search/') || p.includes('/chunks/search-'))).toEqual([]);
    expect(await input(page).getAttribute('placeholder')).toBe('Search');
    // Focus wakes the header island, which then loads the search chunk: wait
    // for that request rather than a fixed time, which a loaded CI machine misses.
    const searchChunk = page.waitForRequest((r) => r.url().includes('/chunks/search-'), { timeout: 10_000 });
    await input(page).focus();
    await searchChunk;
    expect(fetched.some((p) => p.includes('/chunks/search-'))).toBe(true);
    await page.close();
  });

  it('shows nothing for 2 characters and results from 3, grouped by category then subcategory', async () => {
    const page = await open(site, '/');
    const problems = watchConsole(page);
    await input(page).fill('ba');
    await page.waitForTimeout(400);
    expect(await results(page).count()).toBe(0);
    expect(await page.locator('.search-hint').innerText()).toBe('Type at least 3 characters');
    await input(page).fill('BAN');
    await page.waitForSelector('.search-results a');
    const titles = await results(page).allInnerTexts();
    expect(titles.length).toBeGreaterThan(0);
    // Words are matched in titles, topics and descriptions (issue 18): a title holds "ban" at least.
    expect(titles.some((title) => title.toLowerCase().includes('ban'))).toBe(true);
    // Grouped: each category heading once, in menu order, with subcategory headings under it.
    const groups = await page.locator('.search-group-title').allInnerTexts();
    expect(new Set(groups).size).toBe(groups.length);
    const menuOrder = await page.locator('.menu-category-title').allTextContents();
    expect([...groups].sort((a, b) => menuOrder.indexOf(a) - menuOrder.indexOf(b))).toEqual(groups);
    expect(await page.locator('.search-group >> nth=0 >> .search-subgroup-title').count()).toBeGreaterThan(0);
    // Named groups for a screen reader, and no heading of theirs ahead of the page's h1 (the results sit in the header).
    expect((await page.locator('.search-results').ariaSnapshot()).split('\n')).toContainEqual(expect.stringMatching(/^\s+- group "[^"]+":$/));
    expect(await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].findIndex((h) => h.tagName === 'H1'))).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('needs every word in the title, in any order', async () => {
    const page = await open(site, '/');
    await input(page).fill('management bankroll');
    await page.waitForSelector('.search-results a');
    const reversed = await results(page).allInnerTexts();
    await input(page).fill('bankroll management');
    await page.waitForFunction(() => document.querySelector('.search-results:not([aria-busy="true"])'));
    await page.waitForTimeout(300);
    expect(await results(page).allInnerTexts()).toEqual(reversed);
    expect(reversed.some((t) => t.startsWith('Bankroll Management: How to Size Your Bets'))).toBe(true);
    for (const title of reversed) expect(title.toLowerCase()).toMatch(/^(?=.*bankroll)(?=.*management)/);
    await page.close();
  });

  it('shows the empty-state image when nothing matches', async () => {
    const page = await open(site, '/');
    await input(page).fill('zzqx nothing');
    await page.waitForSelector('.search-empty');
    expect(await results(page).count()).toBe(0);
    expect(await page.locator('.search-empty svg[role="img"]').getAttribute('aria-label')).toBe('An empty card table');
    expect(await page.locator('.search-empty').innerText()).toContain('zzqx nothing');
    await page.close();
  });

  it('opens a result in a new tab and keeps the typed text', async () => {
    const page = await open(site, '/');
    await input(page).fill('bankroll');
    await page.waitForSelector('.search-results a');
    const first = results(page).first();
    expect(await first.getAttribute('target')).toBe('_blank');
    expect(await first.getAttribute('href')).toMatch(/^\/articles\/[a-z0-9-]+$/);
    const [tab] = await Promise.all([site.browser.context.waitForEvent('page'), first.click()]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe(await first.getAttribute('href'));
    expect(await input(page).inputValue()).toBe('bankroll');
    expect(new URL(page.url()).pathname).toBe('/');
    await tab.close();
    await page.close();
  });

  it('moves into the results with ArrowDown and back out with Escape', async () => {
    const page = await open(site, '/');
    await input(page).fill('poker');
    await page.waitForSelector('.search-results a');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.closest('.search-results') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('search-input'))).toBe(true);
    expect(await page.locator('.search-results').count()).toBe(0);
    expect(await input(page).inputValue()).toBe('poker');
    await page.close();
  });

  it('goes back up to the search box with ArrowUp from the first result, the results still open, and ArrowDown opens them again after Escape', async () => {
    const page = await open(site, '/');
    await input(page).fill('poker');
    await page.waitForSelector('.search-results a');
    const inInput = () => page.evaluate(() => document.activeElement?.classList.contains('search-input'));
    const firstFocused = () => page.evaluate(() => document.activeElement === document.querySelector('.search-results a'));
    await page.keyboard.press('ArrowDown');
    expect(await firstFocused()).toBe(true);
    await page.keyboard.press('ArrowUp');
    expect(await inInput()).toBe(true);
    expect(await page.locator('.search-results a').count()).toBeGreaterThan(0);
    await page.keyboard.press('ArrowDown');
    expect(await firstFocused()).toBe(true);
    // Closed with Escape, opened again from the keyboard without typing.
    await page.keyboard.press('Escape');
    expect(await page.locator('.search-results').count()).toBe(0);
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('.search-results a');
    await page.keyboard.press('ArrowDown');
    expect(await firstFocused()).toBe(true);
    await page.close();
  });

  it.each([375, 1280])('closes its results when Tab takes focus out of the search box at %i px, so they hide nothing focused', async (width) => {
    const page = await open(site, '/', width);
    const shown = () => page.evaluate(() => document.querySelector('.search-results')?.checkVisibility() ?? false);
    await input(page).focus();
    await page.keyboard.type('tilt');
    await page.waitForSelector('.search-results a');
    // Through the results and out the other side: focus is on the page, and nothing covers it.
    const count = await results(page).count();
    for (let i = 0; i <= count; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.search') === null)).toBe(true);
    expect(await shown()).toBe(false);
    expect(await input(page).inputValue()).toBe('tilt');
    // Back into the box: the results come back; Shift+Tab out of it closes them again.
    await input(page).focus();
    await page.waitForSelector('.search-results a');
    await page.keyboard.press('Shift+Tab');
    expect(await shown()).toBe(false);
    // Opening a result in a new tab takes focus from the window, not from the box: the list stays for the reader's return.
    await input(page).focus();
    const [tab] = await Promise.all([site.browser.context.waitForEvent('page'), results(page).first().click()]);
    await tab.close();
    expect(await shown()).toBe(true);
    await page.close();
  });
});

describe('what a screen reader hears', () => {
  // Pictographs, but for the copyright line's ©, which is read as "copyright".
  const EMOJI = /(?![©®™])\p{Extended_Pictographic}/u;

  it.each(['/', '/betting-strategies', '/sitemap', '/search?q=poker'])(
    'the names of categories and topics on %s, without the emoji they are shown with',
    async (pagePath) => {
      const page = await open(site, pagePath, 1280);
      const heardLines = async () => (await page.locator('body').ariaSnapshot()).split('\n').filter((line) => EMOJI.test(line));
      if (pagePath.startsWith('/search')) await page.waitForSelector('.search-page-list a');
      // The menu open: its names are heard too. The emoji are still there for the eye.
      await page.locator('.menu-button').click();
      expect(await page.locator('.menu-category-title >> nth=0').innerText()).toMatch(EMOJI);
      expect(await page.locator('footer a >> nth=0').innerText()).toMatch(EMOJI);
      expect(await heardLines()).toEqual([]);
      // Shown as before: the emoji and the name on one line, a space between them (in a chip or a footer link too).
      expect(await page.locator('footer a >> nth=0').innerText()).toBe('💰 Betting Strategies');
      if (pagePath === '/betting-strategies') expect(await page.locator('.topics a >> nth=0').innerText()).toMatch(/^🎯 Fundamental Betting Strategies\n/);
      // On the home page, the header search's results as well.
      if (pagePath === '/') {
        await page.locator('.search-input').fill('poker');
        await page.waitForSelector('.search-results a');
        expect(await page.locator('.search-group-title >> nth=0').innerText()).toMatch(EMOJI);
        expect(await heardLines()).toEqual([]);
      }
      await page.close();
    },
  );

  it.each(['/betting-strategies', '/sitemap'])('the topic counts of %s say what they count', async (pagePath) => {
    const page = await open(site, pagePath, 375);
    // The accessibility tree as a screen reader walks it (the links' addresses left out).
    const snapshot = (await page.locator('main').ariaSnapshot()).replace(/^\s*- \/url: .*$/gm, '');
    // "Bankroll Management 2 articles", not a bare "2" that could be anything.
    expect(snapshot).toMatch(/Bankroll Management\W+(text: )?2 articles/);
    expect(snapshot).toMatch(/Betting Odds Explained\W+(text: )?1 article\b/);
    expect(snapshot).not.toMatch(/Bankroll Management\W+(text: )?2(?! articles)/);
    await page.close();
  });
});

// Before the copy-link tests: page.clock.install() there fakes the timers of the whole browser context.
describe('islands before their first interaction', () => {
  it('load no React until the reader interacts, and report no console problems once hydrated', async () => {
    const page = await site.browser.context.newPage();
    const problems = watchConsole(page);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto(site.url + ARTICLE);
    await page.waitForFunction(() => document.documentElement.dataset.feltReady === 'true');
    await page.waitForTimeout(300);
    // Only the runtime ran; the islands' code may be prefetched, but nothing has hydrated.
    expect(await page.evaluate(() => document.documentElement.dataset.feltHydrated)).toBeUndefined();
    expect(scripts.some((s) => s.includes('/chunks/header-'))).toBe(false);
    await page.mouse.move(600, 400);
    await page.waitForFunction(() => document.documentElement.dataset.feltHydrated === 'true');
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each([375, 1280])('open the menu on the first tap at %i px, before anything hydrated it', async (width) => {
    const page = await open(site, '/', width, { wake: false });
    const button = page.locator('.menu-button');
    await button.click();
    await page.waitForFunction(() => (document.querySelector('.category-menu') as HTMLDetailsElement).open);
    expect(await page.locator('.menu-panel').isVisible()).toBe(true);
    await page.close();
  });

  it('open the menu on its first link from the keyboard, before anything hydrated it', async () => {
    const page = await open(site, '/', 1280, { wake: false });
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab'); // the logo
    await page.keyboard.press('Tab'); // the menu button
    expect(await focusedClass(page)).toBe('menu-button');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('.category-menu') as HTMLDetailsElement).open);
    await page.waitForFunction(() => document.activeElement === document.querySelector('.menu-panel a'));
    await page.close();
  });

  it('search what was typed before anything hydrated the box', async () => {
    const page = await open(site, '/', 1280, { wake: false });
    await page.locator('.search-input').pressSequentially('bankroll', { delay: 0 });
    await page.waitForSelector('.search-results a[href^="/articles/"]');
    expect(await page.locator('.search-input').inputValue()).toBe('bankroll');
    await page.close();
  });
});

describe('copy link', () => {
  it('shows "Copied" for 3 seconds', async () => {
    await site.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const page = await site.browser.context.newPage();
    await page.clock.install();
    await page.goto(site.url + ARTICLE);
    await page.waitForFunction(() => document.documentElement.dataset.feltReady === 'true');
    const button = page.locator('.copy-link');
    expect(await button.innerText()).toContain('Copy link');
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 60_000);
    await button.click();
    await page.waitForSelector('.copy-link.is-copied');
    expect(await button.innerText()).toContain('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`https://feltmagazine.example${ARTICLE}`);
    await page.clock.runFor(2990);
    expect(await button.innerText()).toContain('Copied');
    await page.clock.runFor(20);
    await page.waitForSelector('.copy-link:not(.is-copied)');
    expect(await button.innerText()).toContain('Copy link');
    await page.close();
  });

  it('falls back to a prompt when the clipboard is refused', async () => {
    const page = await site.browser.context.newPage();
    await page.addInitScript(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.goto(site.url + ARTICLE);
    await page.waitForFunction(() => document.documentElement.dataset.feltReady === 'true');
    const dialog = new Promise<{ type: string; message: string; value: string }>((resolve) =>
      page.once('dialog', (d) => {
        resolve({ type: d.type(), message: d.message(), value: d.defaultValue() });
        void d.accept();
      }),
    );
    await page.locator('.copy-link').click();
    const shown = await dialog;
    expect(shown.type).toBe('prompt');
    expect(shown.message).toBe('Copy to clipboard: Ctrl+C, Enter');
    expect(shown.value).toBe(`https://feltmagazine.example${ARTICLE}`);
    await page.close();
  });
});

/**
 * What a keyboard reader sees of the focused element: its ring (the outline, or the search box's shadow ring)
 * against the surface it is drawn on, as a WCAG contrast ratio. The ring needs 3:1 (WCAG 1.4.11).
 */
async function focusRing(page: Page): Promise<{ what: string; ratio: number }> {
  return page.evaluate(() => {
    const parse = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const [R, G, B] = [r!, g!, b!].map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    const ring =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
        ? style.outlineColor
        : (style.boxShadow.match(/rgba?\([^)]*\)/)?.[0] ?? 'rgba(0, 0, 0, 0)');
    let surface = [255, 255, 255];
    for (let node = el.parentElement; node; node = node.parentElement) {
      const background = parse(getComputedStyle(node).backgroundColor);
      if (background.length === 3 || background[3] === 1) {
        surface = background.slice(0, 3);
        break;
      }
    }
    const [r, g, b, a = 1] = parse(ring);
    const drawn = [r!, g!, b!].map((v, i) => v * a + surface[i]! * (1 - a));
    const [light, dark] = [luminance(drawn), luminance(surface)].sort((x, y) => y - x);
    const what = `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"${el.matches(':focus-visible') ? '' : ' (no :focus-visible)'}`;
    return { what, ratio: Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100 };
  });
}

describe('keyboard focus', () => {
  it.each([375, 1280])(
    'is never hidden under the sticky header at %i px, going back up the article with Shift+Tab or following a contents link',
    async (width) => {
      const page = await open(site, ARTICLE, width);
      await page.emulateMedia({ reducedMotion: 'reduce' }); // scrolls at once, so each position is final when read
      const place = () =>
        page.evaluate(() => {
          const focused = document.activeElement!;
          const header = document.querySelector('.site-header')!.getBoundingClientRect().bottom;
          return {
            text: (focused.textContent ?? '').trim().slice(0, 30),
            top: focused.getBoundingClientRect().top,
            header,
            inHeader: focused.closest('.site-header') !== null,
          };
        });
      const hidden: string[] = [];
      await page.locator('.site-footer a >> nth=0').focus();
      for (let step = 0; step < 80; step++) {
        await page.keyboard.press('Shift+Tab');
        const { text, top, header, inHeader } = await place();
        if (inHeader) break;
        if (top < header) hidden.push(`${text}: top ${Math.round(top)} px, under the header's ${Math.round(header)} px`);
      }
      expect(hidden).toEqual([]);
      // A heading reached from the table of contents shows below the header too, and not far below it.
      const link = page.locator('.toc a >> nth=2');
      const id = (await link.getAttribute('href'))!.slice(1);
      await link.click();
      const { top, header } = await page.evaluate(
        (target) => ({
          top: document.getElementById(target)!.getBoundingClientRect().top,
          header: document.querySelector('.site-header')!.getBoundingClientRect().bottom,
        }),
        id,
      );
      expect(top).toBeGreaterThanOrEqual(header);
      expect(top).toBeLessThan(header + 48);
      await page.close();
    },
  );

  it.each([375, 1280])('shows a ring of 3:1 or more on the green header, the lead card and the footer at %i px', async (width) => {
    const page = await open(site, '/', width);
    const weak: string[] = [];
    const check = async () => {
      const { what, ratio } = await focusRing(page);
      if (ratio < 3 || what.includes('no :focus-visible')) weak.push(`${what}: ${ratio}:1`);
    };
    // Skip link, logo, menu button, search box: the header, in the order Tab reaches them.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      await check();
    }
    for (const selector of ['.card-lead .card-title a', '.site-footer a >> nth=0', '.site-footer a >> nth=-1']) {
      await page.locator(selector).focus();
      await check();
    }
    expect(weak).toEqual([]);
    await page.close();
  });
});

describe('tap targets on a phone', () => {
  // Links in running text (the article's body, the sponsored line, "By <author>") are left their text's height, as
  // WCAG 2.5.8 allows; every link that stands on its own is a finger's height.
  const STANDING_LINKS = [
    '.breadcrumbs a',
    '.topics a',
    '.tile-more',
    '.tile-title a',
    '.card-kicker',
    '.card-meta a',
    '.toc a',
    '.author-box-name a',
    '.translations a',
    '.author-name a',
    '.site-footer a',
  ].join(', ');

  it.each(['/', '/betting-strategies', ARTICLE, '/authors'])(
    'the links of %s that stand on their own (trail, topics, tiles, cards, contents, authors, footer) are 44 px tall at 375 px, and no link takes taps over another',
    async (pagePath) => {
      const page = await open(site, pagePath, 375);
      // Every link a finger can reach, as the box that takes its taps (an inline link's padding included).
      const links = await page.evaluate((standing) => {
        const reachable = [...document.querySelectorAll<HTMLElement>('a[href]')].filter(
          (a) => a.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && !a.closest('.site-nav') && a.getClientRects().length > 0,
        );
        return reachable.flatMap((a) =>
          [...a.getClientRects()].map(({ left, top, right, bottom }) => ({
            text: (a.textContent ?? '').trim().slice(0, 30),
            standing: a.matches(standing),
            link: reachable.indexOf(a),
            left,
            top: top + scrollY,
            right,
            bottom: bottom + scrollY,
          })),
        );
      }, STANDING_LINKS);
      const standing = links.filter((box) => box.standing);
      expect(standing.length).toBeGreaterThan(15);
      const small = standing.filter((b) => b.bottom - b.top < 44).map((b) => `${b.text}: ${Math.round(b.bottom - b.top)} px`);
      const overlapping = links.flatMap((a, i) =>
        links
          .slice(i + 1)
          .filter((b) => a.link !== b.link && a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
          .map((b) => `${a.text} / ${b.text}`),
      );
      expect({ small, overlapping }).toEqual({ small: [], overlapping: [] });
      await page.close();
    },
  );
});

describe('the authors page', () => {
  it.each([
    [375, 3],
    [1280, Infinity],
  ])('at %i px shows at most %s lines of each biography, the whole text still in the page', async (width, lines) => {
    const page = await open(site, '/authors', width);
    const bios = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.author-bio')].map((bio) => ({
        shownLines: Math.round(bio.clientHeight / parseFloat(getComputedStyle(bio).lineHeight)),
        wholeLines: Math.round(bio.scrollHeight / parseFloat(getComputedStyle(bio).lineHeight)),
        text: bio.textContent ?? '',
      })),
    );
    expect(bios.length).toBeGreaterThan(40);
    // On a phone the long ones are cut short on screen; the text a screen reader reads is whole.
    expect(bios.filter((bio) => bio.shownLines > lines)).toEqual([]);
    if (width === 375) expect(bios.filter((bio) => bio.wholeLines > 3).length).toBeGreaterThan(20);
    else expect(bios.filter((bio) => bio.wholeLines !== bio.shownLines)).toEqual([]);
    expect(bios.every((bio) => bio.text.length > 100)).toBe(true);
    await page.close();
  });
});
