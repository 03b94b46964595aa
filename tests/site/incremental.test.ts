/**
 * Incremental builds: a rebuild renders only what changed, and its output is
 * byte for byte what a cold build of the same content writes, but for the
 * search index: there a rebuild adds a delta to the base (issue 13), and
 * every query finds what it finds in a cold build's index.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, readlink, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { fixtureCopy, tempDir } from './helpers.ts';
import { writeCorpus } from '../../bench/corpus.mjs';
import { BACKGROUND_STAT_MIN } from '../../site/content/statFiles.ts';
import { searchDifferences, titleQueries } from '../support/searchDist.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const run = promisify(execFile);
const FELT = new URL('../../bin/felt.js', import.meta.url).pathname;

/** Every file of a build but its bookkeeping (.felt/) and its search index (compared by queries: expectSameSearch()). */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full);
    if (relative.startsWith('.felt') || relative.startsWith(`search${path.sep}`)) continue;
    files[relative] = await readFile(full, 'utf8');
  }
  return files;
}

/** The search index of `dir` answers every query as the one of `reference` does. */
async function expectSameSearch(dir: string, reference: string, what = 'search'): Promise<void> {
  const queries = await titleQueries(dir, reference);
  expect(queries.length, what).toBeGreaterThan(20);
  expect(await searchDifferences(dir, reference, queries), what).toEqual([]);
}

/** `out` holds, file for file, what a cold build of the same content writes (the search index compared by queries only). */
async function expectSameAsColdBuild(out: string, options: Omit<Parameters<typeof buildSite>[0], 'outDir' | 'incremental'>, what?: string) {
  const fresh = path.join(await tempDir(), 'dist');
  await buildSite({ ...options, outDir: fresh, incremental: false });
  const [incremental, reference] = await Promise.all([snapshot(out), snapshot(fresh)]);
  expect(Object.keys(incremental).sort(), what).toEqual(Object.keys(reference).sort());
  for (const name of Object.keys(reference)) expect(incremental[name], what ? `${what}: ${name}` : name).toBe(reference[name]);
  return { fresh, files: Object.keys(incremental) };
}

const NEW_ARTICLE = `---
title: Reading Line Movement
slug: reading-line-movement
description: What a moving line tells you.
author: Colette Marchand
date: 2026-03-01
locale: en_US
entities:
  - category: bettingStrategies
    subcategories:
      - subcategory: advancedBettingTechniques
        subsubcategories: []
---
Lines move for reasons.

## Why lines move

Money and news.
`;

describe('incremental builds', () => {
  it('renders only the pages an edit touches, and writes what a cold build writes', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    const cold = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(cold.rendered).toBe(cold.pages);

    const unchanged = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(unchanged.rendered).toBe(0);

    // Edit one article's body. A cold build keys no page that has inputs (it renders them all anyway), so the first
    // build after it renders every page whose inputs changed: the article, its neighbours and its listings.
    const file = path.join(content, 'articles/en_US/table-talk.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Talk less, listen more.', 'Talk less, listen much more.'));
    const firstEdit = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(firstEdit.rendered).toBeGreaterThan(1);
    expect(firstEdit.rendered).toBeLessThan(12);
    // Keyed now: the next body edit changes the article's own page, and nothing that only lists it.
    await writeFile(file, (await readFile(file, 'utf8')).replace('Talk less, listen much more.', 'Talk less, listen far more.'));
    const edited = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(edited.rendered).toBe(1);
    expect(await readFile(path.join(out, 'articles/table-talk/index.html'), 'utf8')).toContain('listen far more');

    // Add one article and delete another.
    await writeFile(path.join(content, 'articles/en_US/reading-line-movement.md'), NEW_ARTICLE);
    await unlink(path.join(content, 'articles/en_US/crypto-books.md'));
    const changed = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(changed.rendered).toBeGreaterThan(1);
    expect(changed.rendered).toBeLessThan(changed.pages);

    const { fresh, files } = await expectSameAsColdBuild(out, { contentDir: content, now: NOW });
    await expectSameSearch(out, fresh);
    expect(files).toContain('articles/reading-line-movement/index.html');
    expect(files.some((f) => f.includes('crypto-books'))).toBe(false);
  });

  it('rebuilds what a cold build would write after each kind of change an article page depends on', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const edit = async (file: string, change: (text: string) => string) => {
      const full = path.join(content, file);
      const before = await readFile(full, 'utf8');
      const after = change(before);
      expect(after, `${file} changed`).not.toBe(before);
      await writeFile(full, after);
    };
    const steps: [string, () => Promise<void>, string, string][] = [
      [
        'an author bio',
        () => edit('authors.json', (t) => t.replace('Colette grew up in Lyon', 'Colette grew up in Marseille')),
        'articles/crypto-books/index.html',
        'Marseille',
      ],
      ['an ad on an article page', () => edit('ads.json', (t) => t.replace('B partner', 'C partner')), 'articles/first-steps/index.html', 'C partner'],
      [
        'a translation in another locale',
        async () => {
          await edit('articles/ru_RU/pervye-shagi.md', (t) => t.replace('slug: pervye-shagi', 'slug: pervye-shagi-v-stavkah'));
          await rename(path.join(content, 'articles/ru_RU/pervye-shagi.md'), path.join(content, 'articles/ru_RU/pervye-shagi-v-stavkah.md'));
        },
        'articles/first-steps/index.html',
        'https://ru.fixture.example/articles/pervye-shagi-v-stavkah',
      ],
      [
        "a related article's title",
        () => edit('articles/en_US/advanced-hedging.md', (t) => t.replace(/^title: .*$/m, 'title: Hedging, Revisited')),
        'articles/first-steps/index.html',
        'Hedging, Revisited',
      ],
    ];
    for (const [what, change, page, expected] of steps) {
      await change();
      const result = await buildSite({ contentDir: content, outDir: out, now: NOW });
      expect(result.rendered, what).toBeLessThan(result.pages);
      expect(await readFile(path.join(out, page), 'utf8'), what).toContain(expected);
      const { fresh } = await expectSameAsColdBuild(out, { contentDir: content, now: NOW }, what);
      await expectSameSearch(out, fresh, what);
    }
  });

  it('drops a draft mark from a preview rebuild once production holds the same article', async () => {
    const content = await fixtureCopy();
    const dev = await tempDir();
    const out = path.join(await tempDir(), 'dist');
    const devFile = path.join(dev, 'articles/en_US/table-talk.md');
    await mkdir(path.dirname(devFile), { recursive: true });
    await writeFile(
      devFile,
      (await readFile(path.join(content, 'articles/en_US/table-talk.md'), 'utf8')).replace('Talk less, listen more.', 'Talk less, listen far more.'),
    );
    await buildSite({ contentDir: content, devContentDir: dev, outDir: out, now: NOW });
    const page = path.join(out, 'articles/table-talk/index.html');
    expect(await readFile(page, 'utf8')).toContain('data-draft="changed"');

    // Published: production now has the dev bytes, and the article is no longer a draft.
    await writeFile(path.join(content, 'articles/en_US/table-talk.md'), await readFile(devFile));
    await buildSite({ contentDir: content, devContentDir: dev, outDir: out, now: NOW });
    expect(await readFile(page, 'utf8')).not.toContain('data-draft');
    await expectSameAsColdBuild(out, { contentDir: content, devContentDir: dev, now: NOW });
  });

  it("never keeps a file of a spare release made from other templates: after a new year's full build, a rebuild writes what a cold build writes", async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    const nextYear = new Date('2027-01-02T12:00:00Z');
    await writeFile(path.join(content, 'articles/en_US/reading-line-movement.md'), NEW_ARTICLE);
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const hedging = path.join(content, 'articles/en_US/advanced-hedging.md');
    await writeFile(hedging, (await readFile(hedging, 'utf8')).replace(/^title: .*$/m, 'title: Hedging, Revisited'));
    expect((await buildSite({ contentDir: content, outDir: out, now: NOW })).release?.from).toBe('none');
    // A new year changes every page's footer, not the pages' own data: a full build, written over the spare (the
    // first build's release), whose pages of the article deleted now must go; the 2026 release becomes the spare,
    // without the folders of the article added now, which the next night links into it.
    await unlink(path.join(content, 'articles/en_US/reading-line-movement.md'));
    await writeFile(
      path.join(content, 'articles/en_US/new-year-lines.md'),
      NEW_ARTICLE.replace('slug: reading-line-movement', 'slug: new-year-lines').replace('date: 2026-03-01', 'date: 2026-02-01'),
    );
    const full = await buildSite({ contentDir: content, outDir: out, now: nextYear });
    expect(full.rendered).toBe(full.pages);
    expect(full.release).toEqual({ from: 'rewritten', linked: 0 });
    await expectSameAsColdBuild(out, { contentDir: content, now: nextYear }, 'the full build over the spare');
    // The next night: the spare is of the other templates, its files replaced by the served release's.
    await writeFile(path.join(content, 'articles/en_US/reading-line-movement.md'), NEW_ARTICLE.replace('2026-03-01', '2026-03-02'));
    const rebuilt = await buildSite({ contentDir: content, outDir: out, now: nextYear });
    expect(rebuilt.rendered).toBeLessThan(rebuilt.pages);
    expect(rebuilt.release?.from).toBe('reworked');

    await expectSameAsColdBuild(out, { contentDir: content, now: nextYear }, 'the rebuild over a spare of other templates');
  });

  it('never writes into a file of the served release when a full build writes over the spare, which shares files with it', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    for (const date of ['2026-03-01', '2026-03-02', '2026-03-03']) {
      await writeFile(path.join(content, 'articles/en_US/reading-line-movement.md'), NEW_ARTICLE.replace('2026-03-01', date));
      await buildSite({ contentDir: content, outDir: out, now: NOW });
    }
    const served = path.resolve(path.dirname(out), await readlink(out));
    const before = await snapshot(served);
    const full = await buildSite({ contentDir: content, outDir: out, now: new Date('2027-01-02T12:00:00Z') });
    expect(full.release?.from).toBe('rewritten');
    expect(await snapshot(served), 'the release served before the full build is as it was').toEqual(before);
  });

  it('leaves archive pages untouched when articles arrive: only the front page and the newest archive pages change', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    const article = (n: number) =>
      NEW_ARTICLE.replace('reading-line-movement', `line-${n}`)
        .replace('Reading Line Movement', `Line ${n}`)
        .replace('2026-03-01', `2026-03-${String(n).padStart(2, '0')}`);
    for (let n = 1; n <= 6; n++) await writeFile(path.join(content, `articles/en_US/line-${n}.md`), article(n));
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    // The fixture pages by one: Betting Strategies now has 9 articles, the newest on its front page and 8 archive pages.
    const archive = (n: number) => path.join(out, `betting-strategies/page/${n}/index.html`);
    const before = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map(async (n) => ({ html: await readFile(archive(n), 'utf8'), mtime: (await stat(archive(n))).mtimeMs })),
    );
    expect(before[0]!.html).toContain('/articles/crypto-books'); // page 1: the oldest article, for good

    await writeFile(path.join(content, 'articles/en_US/line-7.md'), article(7));
    const next = await buildSite({ contentDir: content, outDir: out, now: NOW });
    for (let n = 1; n <= 6; n++) {
      expect((await stat(archive(n))).mtimeMs, `page ${n} untouched`).toBe(before[n - 1]!.mtime);
      expect(await readFile(archive(n), 'utf8')).toBe(before[n - 1]!.html);
    }
    // Pages 7 and 8 gain links to the pages after them; page 9 is new and holds what the front page held.
    expect(await readFile(archive(9), 'utf8')).toContain('/articles/line-6');
    const front = await readFile(path.join(out, 'betting-strategies/index.html'), 'utf8');
    expect(front).toContain('/articles/line-7');
    expect(front).toContain('10 articles');
    expect(next.rendered).toBeLessThan(next.pages / 2);
  });

  it('after articles are only added, checks only the pages they can change, and writes what a cold build writes', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    const add = (slug: string, date: string, extra: { locale?: string; translationKey?: string } = {}) => {
      const locale = extra.locale ?? 'en_US';
      let text = NEW_ARTICLE.replace('slug: reading-line-movement', `slug: ${slug}`)
        .replace('title: Reading Line Movement', `title: Line ${slug}`)
        .replace('date: 2026-03-01', `date: ${date}`)
        .replace('locale: en_US', `locale: ${locale}`);
      if (extra.translationKey) text = text.replace(`locale: ${locale}`, `locale: ${locale}\ntranslationKey: ${extra.translationKey}`);
      return mkdir(path.join(content, 'articles', locale), { recursive: true }).then(() =>
        writeFile(path.join(content, 'articles', locale, `${slug}.md`), text),
      );
    };
    const picture = async (slug: string) => {
      await mkdir(path.join(content, 'images/en_US'), { recursive: true });
      const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 20, b: 30 } } })
        .png()
        .toBuffer();
      await writeFile(path.join(content, `images/en_US/${slug}.png`), png);
    };
    // Two dozen articles a month apart in one subcategory (the fixture pages by one): a new one lands among
    // neighbours whose related articles it joins, and moves every archive page newer than itself.
    const month = (n: number) => `${2023 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
    for (let n = 0; n < 24; n++) await add(`monthly-${n}`, `${month(n)}-10`);
    await buildSite({ contentDir: content, outDir: out, now: NOW });

    // Each round is one kind of addition, so that every page it can change is found by the plan alone.
    const rounds: [string, () => Promise<unknown>][] = [
      ['one article among the others', () => add('between', `${month(11)}-20`)],
      ['the newest article: the newest archive pages link one page further', () => add('newest', '2026-02-20')],
      ['a translation in another locale', () => add('ilk-adimlar', '2026-01-12', { locale: 'tr_TR', translationKey: 'first-steps' })],
      ['two articles older than all', () => Promise.all([add('oldest-a', '2022-01-01'), add('oldest-b', '2022-02-01')])],
      // The oldest two have no older neighbours: their related articles are the newer ones, this one among them.
      ['one just newer than the oldest two', () => add('old-c', '2022-06-01')],
      ['two neighbours at once', () => Promise.all([add('pair-a', `${month(5)}-20`), add('pair-b', `${month(5)}-25`)])],
      ['a new article with a picture of its own', () => Promise.all([picture('pictured'), add('pictured', `${month(8)}-20`)])],
    ];
    for (const [what, change] of rounds) {
      await change();
      const result = await buildSite({ contentDir: content, outDir: out, now: NOW });
      // The oldest article moves every archive page of its listings (the fixture pages by one): those are checked too.
      expect(result.checked, `${what}: pages checked`).toBeLessThan(result.pages);
      const { fresh } = await expectSameAsColdBuild(out, { contentDir: content, now: NOW }, what);
      await expectSameSearch(out, fresh, what);
    }
    expect(await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8')).toContain('/articles/ilk-adimlar');
    expect(await readFile(path.join(out, 'articles/oldest-a/index.html'), 'utf8')).toContain('/articles/old-c');

    // An article it had gains a picture: its cover and share card change wherever it is shown.
    await picture('monthly-7');
    const pictured = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(pictured.checked).toBe(pictured.pages);
    await expectSameAsColdBuild(out, { contentDir: content, now: NOW }, 'a picture for an article it had');

    // An article changed: it may have moved in its listings, so every page is checked.
    await writeFile(
      path.join(content, 'articles/en_US/monthly-3.md'),
      (await readFile(path.join(content, 'articles/en_US/monthly-3.md'), 'utf8')).replace(`${month(3)}-10`, `${month(20)}-15`),
    );
    const changed = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(changed.checked).toBe(changed.pages);
    await expectSameAsColdBuild(out, { contentDir: content, now: NOW }, 'a date changed');
  });

  it('on a site large enough to check its files on another thread (the served manifest read meanwhile): after 20 new articles, writes what a cold build writes', async () => {
    const content = path.join(await tempDir(), 'content');
    const out = path.join(await tempDir(), 'dist');
    await writeCorpus(content, BACKGROUND_STAT_MIN);
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    await writeCorpus(content, 20, { offset: BACKGROUND_STAT_MIN, fresh: true });
    const rebuilt = await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(rebuilt.checked).toBeLessThan(rebuilt.pages / 10);
    expect(rebuilt.articles).toBe(BACKGROUND_STAT_MIN + 20);
    await expectSameAsColdBuild(out, { contentDir: content, now: NOW });

    // The CLI lists the folder before the build's modules load (statFiles.ts listArticlesAhead): the same site.
    await writeCorpus(content, 20, { offset: BACKGROUND_STAT_MIN + 20, fresh: true });
    const { stdout } = await run(process.execPath, [FELT, 'build', '--content', content, '--out', out, '--json'], {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(NOW.getTime() / 1000) },
    });
    const cli = JSON.parse(stdout) as { articles: number; checked: number; pages: number };
    expect(cli.articles).toBe(BACKGROUND_STAT_MIN + 40);
    expect(cli.checked).toBeLessThan(cli.pages / 10);
    await expectSameAsColdBuild(out, { contentDir: content, now: NOW }, 'a rebuild by the CLI');
  }, 180_000);

  it('never writes into a file of the served release: a rebuild writes into its new release, which shares files with it by hard links', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    // Nights alternate between two categories: a listing's front page changes one night, is linked unchanged into the
    // next night's release from the one served then (a hard link), and changes again the night after, when the
    // release made two nights before (the spare) is rewritten into the new one.
    const add = (slug: string, date: string, poker: boolean) => {
      const text = NEW_ARTICLE.replace('slug: reading-line-movement', `slug: ${slug}`).replace('date: 2026-03-01', `date: ${date}`);
      return writeFile(
        path.join(content, 'articles/en_US', `${slug}.md`),
        poker
          ? text
              .replace('category: bettingStrategies', 'category: pokerGuides')
              .replace('subcategory: advancedBettingTechniques', 'subcategory: beginnerPokerTips')
          : text,
      );
    };
    for (const [night, date] of ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'].entries()) {
      const served = path.resolve(path.dirname(out), await readlink(out));
      const before = await snapshot(served);
      await add(`night-${night}`, date, night % 2 === 1);
      await buildSite({ contentDir: content, outDir: out, now: NOW });
      expect(path.resolve(path.dirname(out), await readlink(out)), 'a new release is served').not.toBe(served);
      expect(await snapshot(served), `night ${night}: the release served before is as it was`).toEqual(before);
    }
  });

  it('renders the same site on worker threads as on one thread', async () => {
    const content = await fixtureCopy();
    const root = await tempDir();
    const one = path.join(root, 'one');
    const many = path.join(root, 'many');
    // Run from another folder than felt's own: asset links must not depend on it.
    await run(process.execPath, [FELT, 'build', '--content', content, '--out', one, '--threads', '1', '--no-incremental'], { cwd: root });
    const { stdout } = await run(process.execPath, [FELT, 'build', '--content', content, '--out', many, '--threads', '3', '--no-incremental', '--json'], {
      cwd: root,
    });
    expect(await readFile(path.join(many, 'index.html'), 'utf8')).toMatch(/<link rel="stylesheet" href="\/assets\/styles-\w+\.css">/);
    expect(JSON.parse(stdout)).toMatchObject({ threads: 3, rendered: 31 });
    const [a, b] = await Promise.all([snapshot(one), snapshot(many)]);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    // The copyright year is the build's; everything else is identical.
    for (const name of Object.keys(a)) expect(b[name], name).toBe(a[name]);
  });
});
