/**
 * Issue 17, item 5: the plan covers the site. Slots go to the categories and
 * named subcategories the locale has least of; --dry-run prints the
 * coverage table (category × subcategory × locale).
 */
import { describe, expect, it } from 'vitest';
import { generate, type DryRunResult, type RunSummary } from '../../../cli/generate/run.ts';
import { loadContent } from '../../../site/content/loadContent.ts';
import { makeFixture } from '../../support/fixtureSite.ts';
import { libraryOptions, setUpWorld } from './support.ts';

const world = setUpWorld();
const REPO_CONTENT = new URL('../../../content', import.meta.url).pathname;

const places = (s: { category: string; subcategory: string }[]) => s.map((p) => `${p.category}/${p.subcategory}`);

describe('the planner', () => {
  it('puts three a night in three categories and named subcategories, and the next night elsewhere', async () => {
    const first = (await generate(libraryOptions(world, { count: 3, date: '2026-04-01' }).opts)) as RunSummary;
    expect(places(first.stored).sort()).toEqual([
      'bettingStrategies/bankrollManagement',
      'gamblingResponsible/settingLimitsForYourself',
      'pokerGuides/beginnerPokerTips',
    ]);
    const second = (await generate(libraryOptions(world, { count: 3, date: '2026-04-02' }).opts)) as RunSummary;
    const again = places(second.stored);
    expect(again.filter((p) => places(first.stored).includes(p))).toEqual([]);
    expect(new Set(second.stored.map((s) => s.category)).size).toBe(3);
    expect(again).toContain('bettingStrategies/bettingOddsExplained');
  });

  it('plans a rerun the same way after some of its articles are stored', async () => {
    let calls = 0;
    world.llm.reply = () => (++calls === 2 ? { content: 'not json' } : undefined);
    const first = (await generate(libraryOptions(world, { count: 5, attempts: 1, concurrency: 1 }).opts)) as RunSummary;
    expect(first.failed.map((f) => f.slot)).toEqual([1]);
    world.llm.reply = () => undefined;
    const rerun = (await generate(libraryOptions(world, { count: 5 }).opts)) as RunSummary;
    expect(rerun.alreadyDone).toBe(4);
    expect(rerun.stored).toEqual([expect.objectContaining({ slot: 1, category: first.failed[0]!.category, subcategory: first.failed[0]!.subcategory })]);
  });

  it('at 50 covers every category and every subcategory the site has least of (the repository content, dry run)', async () => {
    const result = (await generate(libraryOptions(world, { contentDir: REPO_CONTENT, locale: 'ru_RU', count: 50, dryRun: true }).opts)) as DryRunResult;
    const content = await loadContent(REPO_CONTENT);
    const planned = new Set(places(result.plan));
    for (const category of content.categories) {
      for (const subcategory of category.children) {
        const row = result.coverage.find((r) => r.category === category.key && r.subcategory === subcategory.key)!;
        if (row.articles.ru_RU === 0) expect(planned, `${category.key}/${subcategory.key}`).toContain(`${category.key}/${subcategory.key}`);
      }
    }
    expect(new Set(result.plan.map((p) => p.category)).size).toBe(content.categories.length);
    expect(result.plan.filter((p) => p.subcategory === 'other').length).toBeLessThan(10);
    // Every article in a row, as the site files it (a subcategory its category lacks is in "other"): the totals are
    // felt check's counts (the table's en_US total was 40 of 44).
    for (const locale of ['en_US', 'ru_RU', 'tr_TR'] as const) {
      expect(
        result.coverage.reduce((sum, row) => sum + row.articles[locale], 0),
        locale,
      ).toBe(content.articles[locale].length);
    }
  });

  it("shows the model the titles of the slot's own subcategory first, to avoid their topics", async () => {
    const source = (slug: string, title: string, subcategory: string) =>
      `---\ntitle: "${title}"\nslug: ${slug}\ndescription: "About ${title}."\nauthor: Mara Lindqvist\ndate: 2026-01-02\nlocale: en_US\nentities:\n  - category: pokerGuides\n    subcategories:\n      - subcategory: ${subcategory}\n---\n\nIntro.\n\n## One\n\nText.\n`;
    await world.fixture.cleanup();
    world.fixture = await makeFixture({
      articles: {
        'en_US/a-aces.md': source('a-aces', 'Playing aces from early position', 'beginnerPokerTips'),
        'en_US/b-other.md': source('b-other', 'A history of card rooms', 'other'),
      },
    });
    const { opts, streams } = libraryOptions(world, { count: 1, dryRun: true, category: 'pokerGuides', subcategory: 'beginnerPokerTips' });
    await generate(opts);
    expect(streams.out()).toContain('- Playing aces from early position\n- A history of card rooms');
  });

  it('counts an article whose subcategory its category lacks in that category\'s "other", as the site files it', async () => {
    const source = (slug: string, subcategory: string) =>
      `---\ntitle: "About ${slug}"\nslug: ${slug}\ndescription: "About ${slug}."\nauthor: Mara Lindqvist\ndate: 2026-01-02\nlocale: en_US\nentities:\n  - category: pokerGuides\n    subcategories:\n      - subcategory: ${subcategory}\n---\n\nIntro.\n\n## One\n\nText.\n`;
    await world.fixture.cleanup();
    world.fixture = await makeFixture({
      articles: {
        'en_US/a-aces.md': source('a-aces', 'beginnerPokerTips'),
        'en_US/b-etiquette.md': source('b-etiquette', 'livePokerEtiquette'),
        'en_US/c-tells.md': source('c-tells', 'livePokerEtiquette'),
      },
    });
    const result = (await generate(libraryOptions(world, { count: 1, dryRun: true, category: 'pokerGuides' }).opts)) as DryRunResult;
    // "other" holds two articles, beginnerPokerTips one: the slot goes to the subcategory with fewer.
    expect(result.coverage.filter((row) => row.category === 'pokerGuides').map((row) => [row.subcategory, row.articles.en_US])).toEqual([
      ['beginnerPokerTips', 1],
      ['other', 2],
    ]);
    expect(places(result.plan)).toEqual(['pokerGuides/beginnerPokerTips']);
  });

  it('--dry-run prints the coverage table: category × subcategory × locale, and this run', async () => {
    await generate(libraryOptions(world, { count: 2, date: '2026-04-01' }).opts);
    const calls = world.llm.log.length;
    const { opts, streams } = libraryOptions(world, { count: 3, dryRun: true, date: '2026-04-02' });
    const result = (await generate(opts)) as DryRunResult;
    const lines = streams.out().split('\n');
    const header = lines.findIndex((l) => /^category\s+subcategory\s+en_US\s+ru_RU\s+tr_TR\s+this run \(en_US\)$/.test(l));
    expect(header).toBeGreaterThan(0);
    expect(lines.slice(header + 1, header + 9)).toEqual([
      expect.stringMatching(/^bettingStrategies\s+bankrollManagement\s+1\s+0\s+0$/),
      expect.stringMatching(/^bettingStrategies\s+bettingOddsExplained\s+0\s+0\s+0\s+\+1$/),
      expect.stringMatching(/^bettingStrategies\s+other\s+0\s+0\s+0$/),
      expect.stringMatching(/^pokerGuides\s+beginnerPokerTips\s+1\s+0\s+0$/),
      expect.stringMatching(/^pokerGuides\s+other\s+0\s+0\s+0\s+\+1$/),
      expect.stringMatching(/^gamblingResponsible\s+settingLimitsForYourself\s+0\s+0\s+0\s+\+1$/),
      expect.stringMatching(/^gamblingResponsible\s+other\s+0\s+0\s+0$/),
      expect.stringMatching(/^total\s+2\s+0\s+0\s+\+3$/),
    ]);
    expect(result.coverage).toHaveLength(7);
    expect(world.llm.log).toHaveLength(calls);
  });
});
