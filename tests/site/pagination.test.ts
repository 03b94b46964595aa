import { describe, expect, it } from 'vitest';
import { archiveItems, frontItems, neighbours, pageInfo, pageWindow, planListing } from '../../site/model/pagination.ts';

const newestFirst = (n: number) => Array.from({ length: n }, (_, i) => n - i); // article numbers, newest first

describe('stable pagination', () => {
  it('fills archive pages from the oldest article and gives the front page the rest, one to two pages of it', () => {
    expect(planListing(0, 16)).toEqual({ front: 0, archives: 0 });
    expect(planListing(15, 16)).toEqual({ front: 15, archives: 0 });
    expect(planListing(31, 16)).toEqual({ front: 31, archives: 0 });
    expect(planListing(32, 16)).toEqual({ front: 16, archives: 1 });
    expect(planListing(35, 16)).toEqual({ front: 19, archives: 1 });
    expect(planListing(1430, 16)).toEqual({ front: 22, archives: 88 });
  });

  it('shows every article exactly once across the front and archive pages, newest first', () => {
    for (const total of [0, 1, 16, 17, 31, 32, 33, 100, 257]) {
      const items = newestFirst(total);
      const { archives } = planListing(total, 16);
      const pages = [frontItems(items, 16)];
      for (let n = archives; n >= 1; n--) pages.push(archiveItems(items, 16, n));
      expect(pages.flat()).toEqual(items);
      for (const page of pages.slice(1)) expect(page).toHaveLength(16);
    }
  });

  it('keeps every archive page as it was when articles are added', () => {
    const before = newestFirst(100);
    const after = newestFirst(137);
    for (let n = 1; n <= planListing(100, 16).archives; n++) expect(archiveItems(after, 16, n)).toEqual(archiveItems(before, 16, n));
    expect(archiveItems(before, 16, 1)).toEqual([16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it("gives an archive page's navigation no more than it needs, so it changes only as the next two pages appear", () => {
    const seen = new Set<string>();
    for (let archives = 5; archives <= 40; archives++) seen.add(JSON.stringify(pageInfo('/c', 5, archives)));
    expect(seen.size).toBe(3); // page 5 is the newest, has a page 6, has pages 6 and 7+
  });

  it('numbers links newest first, with gaps where pages are skipped', () => {
    expect(pageWindow(pageInfo('/c', 0, 90))).toEqual([0, 90, 89, 'gap', 1]);
    expect(pageWindow(pageInfo('/c', 40, 90))).toEqual([0, 'gap', 41, 40, 39, 'gap', 1]);
    expect(pageWindow(pageInfo('/c', 89, 90))).toEqual([0, 90, 89, 88, 'gap', 1]);
    expect(pageWindow(pageInfo('/c', 90, 90))).toEqual([0, 90, 89, 'gap', 1]);
    expect(pageWindow(pageInfo('/c', 2, 3))).toEqual([0, 3, 2, 1]);
    expect(pageWindow(pageInfo('/c', 1, 1))).toEqual([0, 1]);
    expect(pageWindow(pageInfo('/c', 0, 2))).toEqual([0, 2, 1]);
  });

  it('links newer and older pages', () => {
    expect(neighbours(pageInfo('/c', 0, 0))).toEqual({ older: undefined });
    expect(neighbours(pageInfo('/c', 0, 9))).toEqual({ older: 9 });
    expect(neighbours(pageInfo('/c', 9, 9))).toEqual({ newer: 0, older: 8 });
    expect(neighbours(pageInfo('/c', 4, 9))).toEqual({ newer: 5, older: 3 });
    expect(neighbours(pageInfo('/c', 1, 9))).toEqual({ newer: 2, older: undefined });
  });
});

describe('the line under an archive page heading', () => {
  it('names the page and the dates it spans, in the interface language', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement } = await import('react');
    const { loadMessages } = await import('../../site/i18n/loadMessages.ts');
    const { createTranslator } = await import('../../site/i18n/translator.ts');
    const { SiteProvider } = await import('../../site/components/SiteContext.tsx');
    const { ListingCount } = await import('../../site/components/ListingCount.tsx');
    const messages = await loadMessages();
    const line = (ui: 'en' | 'ru', page: number, dates: string[]) => {
      const t = createTranslator(ui, messages[ui], messages.en);
      const articles = dates.map((date) => ({ slug: date, title: date, description: '', author: 'A', authorSlug: 'a', date, minutes: 1 }));
      const value = { t: t.t, pick: t.pick, formatDate: t.formatDate, settings: {} as never, categories: [] };
      return renderToStaticMarkup(
        createElement(SiteProvider, { value }, createElement(ListingCount, { countKey: 'category.count', total: 40, articles, page })),
      );
    };
    expect(line('en', 0, ['2026-03-01'])).toBe('<p class="page-count">40 articles</p>');
    expect(line('en', 3, ['2026-03-01', '2026-01-05'])).toBe('<p class="page-count">Page 3 · January 5, 2026 – March 1, 2026</p>');
    expect(line('en', 2, ['2026-01-05', '2026-01-05'])).toBe('<p class="page-count">Page 2 · January 5, 2026</p>');
    expect(line('ru', 3, ['2026-03-01', '2026-01-05'])).toMatch(/^<p class="page-count">Страница 3 · 5 января 2026 г\. — 1 марта 2026 г\.<\/p>$/);
  });
});
