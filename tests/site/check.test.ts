/**
 * felt check as a library: every problem of content and UI strings in one
 * report, each with file, line and field; the bundled content is clean.
 */
import { cp, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { buildSite } from '../../site/build/build.ts';
import { articleCacheFile } from '../../site/content/articleCache.ts';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../shared/errors.ts';
import { checkContent } from '../../site/content/check.ts';
import { checkUiLocales } from '../../site/content/checkLocales.ts';
import { parseJson } from '../../shared/jsonSource.ts';
import { LOCALES_DIR } from '../../shared/paths.ts';
import { BUNDLED_CONTENT, FIXTURE_SITE, fixtureCopy, tempDir } from './helpers.ts';

const FIXTURE_ARTICLES = path.join(FIXTURE_SITE, 'articles', 'en_US');

describe('checkContent', () => {
  it('finds nothing wrong with the bundled content and UI strings', async () => {
    const report = await checkContent({ contentDir: BUNDLED_CONTENT });
    expect(report.problems.map(formatProblem)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary?.authors).toBeGreaterThan(40);
    expect(report.summary?.categories).toBe(7);
  });

  it('reports every problem with file:line and field, including JSON settings', async () => {
    const dir = await fixtureCopy({ 'articles/en_US/broken.md': '---\ntitle: Broken\nauthor: Nobody Known\n---\nText\n' });
    const site = JSON.parse(await import('node:fs/promises').then((fs) => fs.readFile(path.join(dir, 'site.json'), 'utf8')));
    site.home.pageSize = 'many';
    site.locale = 'fr_FR';
    delete site.email;
    await writeFile(path.join(dir, 'site.json'), JSON.stringify(site, null, 2));
    const report = await checkContent({ contentDir: dir });
    const lines = report.problems.map(formatProblem);
    expect(report.ok).toBe(false);
    // The summary line an operator reads: five missing article fields, the unknown author and three settings problems.
    expect(report).toMatchObject({ errors: 9, warnings: 0 });
    expect(report.problems.map((p) => `${path.basename(p.file)} ${p.field}`).sort()).toEqual([
      'broken.md author',
      'broken.md date',
      'broken.md description',
      'broken.md entities',
      'broken.md locale',
      'broken.md slug',
      'site.json email',
      'site.json home.pageSize',
      'site.json locale',
    ]);
    expect(lines).toContainEqual(expect.stringMatching(/site\.json:\d+ field "home\.pageSize": home\.pageSize must be a number/));
    expect(lines).toContainEqual(expect.stringMatching(/site\.json:1 field "email": email is required/));
    // One of a list: the list and the value, where zod's own message read `Invalid option: expected one of "en_US"|…`.
    expect(lines).toContainEqual(expect.stringMatching(/site\.json:\d+ field "locale": locale must be one of "en_US", "ru_RU", "tr_TR", not "fr_FR"$/));
    expect(lines).toContainEqual(expect.stringMatching(/broken\.md:1 field "slug": slug is required/));
    expect(lines).toContainEqual(expect.stringMatching(/broken\.md:1 field "date": date is required/));
    for (const problem of report.problems) expect(problem.line, formatProblem(problem)).toBeGreaterThan(0);
  });
});

describe('a file with problems of its own and across files (issue 18, item 6)', () => {
  it('reports its fields and its references in one round, not the references after the fields are fixed', async () => {
    const dir = await fixtureCopy({
      'articles/en_US/two-rounds.md': [
        '---',
        'title: Two Rounds',
        'slug: two-rounds',
        'description: Broken fields and broken references at once.',
        'author: Nobody Known',
        'date: 2026-02-30',
        'locale: en_US',
        'entities:',
        '  - category: noSuchCategory',
        '---',
        'Text.',
      ].join('\n'),
      'articles/en_US/first-steps-again.md': [
        '---',
        'title: 123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890',
        'slug: first-steps',
        'description: A copy.',
        'author: Mara Lindqvist',
        'date: 2026-01-01',
        'locale: en_US',
        'entities:',
        '  - category: bettingStrategies',
        '---',
        'Text.',
      ].join('\n'),
    });
    const report = await checkContent({ contentDir: dir });
    const found = report.problems.map((p) => `${path.basename(p.file)}:${p.line} ${p.field}`).sort();
    // The refused copy's slug is taken by first-steps.md (both named), beside its too-long title;
    // two-rounds.md's unknown author and category beside its impossible date.
    expect(found).toEqual([
      'first-steps-again.md:2 title',
      'first-steps-again.md:3 slug',
      'first-steps.md:3 slug',
      'two-rounds.md:5 author',
      'two-rounds.md:6 date',
      'two-rounds.md:8 entities',
    ]);
  });
});

describe('a frontmatter field felt does not read', () => {
  it('is a warning at its line naming the field it misspells, in every felt check (not cached away), and the build goes on', async () => {
    const source = (await readFile(path.join(FIXTURE_ARTICLES, 'first-steps.md'), 'utf8')).replace('\ndate: ', '\nupdted: 2026-03-01\nmood: sunny\ndate: ');
    const dir = await fixtureCopy({ 'articles/en_US/first-steps.md': source });
    const line = source.split('\n').indexOf('updted: 2026-03-01') + 1;
    const expected = [
      `${path.join('articles', 'en_US', 'first-steps.md')}:${line} field "updted": updted is not a field felt reads; it is left out (did you mean "updated"?)`,
      expect.stringMatching(
        /first-steps\.md:\d+ field "mood": mood is not a field felt reads; it is left out \(remove it; the fields here are "title", "slug", /,
      ),
    ];
    for (const run of [1, 2]) {
      const report = await checkContent({ contentDir: dir });
      expect(report.ok, `run ${run}`).toBe(true);
      expect(
        report.problems.filter((p) => p.severity === 'warning' && p.file.includes('first-steps')).map((p) => formatProblem(p).replace(`${dir}${path.sep}`, '')),
        `run ${run}`,
      ).toEqual(expected);
      if (run === 1) await buildSite({ contentDir: dir, outDir: path.join(await tempDir(), 'dist') });
    }
  });
});

describe('checkUiLocales', () => {
  async function localesWith(edit: (all: Record<string, Record<string, string>>) => void, raw: Record<string, string> = {}) {
    const dir = await tempDir('felt-locales-');
    await cp(LOCALES_DIR, dir, { recursive: true });
    const all: Record<string, Record<string, string>> = {};
    for (const ui of ['en', 'tr', 'ru', 'ko'])
      all[ui] = JSON.parse(await import('node:fs/promises').then((fs) => fs.readFile(path.join(dir, `${ui}.json`), 'utf8')));
    edit(all);
    for (const [ui, strings] of Object.entries(all)) await writeFile(path.join(dir, `${ui}.json`), raw[ui] ?? JSON.stringify(strings, null, 2));
    return checkUiLocales(dir);
  }

  it('passes the shipped locales', async () => {
    expect((await checkUiLocales()).problems).toEqual([]);
  });

  it('reports a missing string, changed placeholders, empty strings and unused keys', async () => {
    const { problems } = await localesWith((all) => {
      delete all.ko!['menu.more'];
      all.tr!['footer.copyright'] = '© {yil} {title}';
      all.ru!['search.placeholder'] = ' ';
      all.ko!['no.such.key'] = '없음';
    });
    const lines = problems.map(formatProblem);
    expect(lines).toContainEqual(expect.stringMatching(/ko\.json field "menu\.more": UI string "menu\.more" is missing/));
    expect(lines).toContainEqual(
      expect.stringMatching(/tr\.json:\d+ field "footer\.copyright": placeholders \{yil\} \{title\} differ from English \{year\} \{title\}/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/ru\.json:\d+ field "search\.placeholder": UI string "search\.placeholder" is empty/));
    expect(problems.find((p) => p.field === 'no.such.key')?.severity).toBe('warning');
    expect(problems.filter((p) => p.severity === 'error')).toHaveLength(3);
  });

  it('treats plural forms as optional but checks their placeholders', async () => {
    const { problems } = await localesWith((all) => {
      delete all.tr!['category.count.one'];
      all.ru!['category.count.few'] = '{count} статьи';
      all.ru!['category.count.many'] = '{total} статей';
    });
    expect(problems.map((p) => `${p.field} ${p.severity}`)).toEqual(['category.count.many error']);
  });

  it('gives the line of a JSON syntax error', async () => {
    const { problems } = await localesWith(() => {}, { tr: '{\n  "a": "b",\n  "c" "d"\n}\n' });
    expect(problems[0]).toMatchObject({ severity: 'error', line: 3 });
  });
});

describe('parseJson', () => {
  it('gives the line of keys, array elements and keys with dots; a missing field is placed at its nearest ancestor', () => {
    const parsed = parseJson('{\n  "a": {\n    "b": [\n      1,\n      { "c": "x\\"y" }\n    ]\n  },\n  "d.e": true\n}');
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { lineOf } = parsed.json;
    expect([lineOf(['a']), lineOf(['a', 'b']), lineOf(['a', 'b', 0]), lineOf(['a', 'b', 1]), lineOf(['a', 'b', 1, 'c']), lineOf(['d.e'])]).toEqual([
      2, 3, 4, 5, 5, 8,
    ]);
    expect([lineOf(['a', 'b', 7]), lineOf(['a', 'missing']), lineOf(['nothing'])]).toEqual([3, 2, 1]);
  });

  it('refuses what JSON does not allow, with its line: comments, trailing commas, an empty file', () => {
    expect(parseJson('{\n  "a": 1,\n  // note\n  "b": 2\n}')).toEqual({ ok: false, error: { line: 3, message: 'comments are not allowed in JSON' } });
    expect(parseJson('{\n  "a": [1, 2,],\n  "b": 2\n}')).toEqual({ ok: false, error: { line: 2, message: 'a trailing comma is not allowed in JSON' } });
    expect(parseJson('{\n  "a": 1,\n}\n')).toEqual({ ok: false, error: { line: 2, message: 'a trailing comma is not allowed in JSON' } });
    expect(parseJson(' \n')).toMatchObject({ ok: false, error: { line: 1 } });
  });

  it("reads the build's article cache and never writes it", async () => {
    const dir = await fixtureCopy();
    const cache = articleCacheFile(dir);
    // No cache yet: check makes none.
    expect((await checkContent({ contentDir: dir })).ok).toBe(true);
    expect(existsSync(cache)).toBe(false);
    // A whole-second time, which utimes sets exactly.
    const file = path.join(dir, 'articles/en_US/table-talk.md');
    await utimes(file, 1_700_000_000, 1_700_000_000);
    await buildSite({ contentDir: dir, outDir: path.join(await tempDir(), 'dist') });
    const before = await readFile(cache);
    // An article rewritten with the same size and time is the cached one, as for the build: check did not read it.
    await writeFile(file, 'x'.repeat((await stat(file)).size));
    await utimes(file, 1_700_000_000, 1_700_000_000);
    expect((await checkContent({ contentDir: dir })).ok).toBe(true);
    // A new article is read, and the cache is left as it was.
    await writeFile(path.join(dir, 'articles/en_US/new-one.md'), '---\ntitle: New\nauthor: Nobody Known\n---\nText\n');
    expect((await checkContent({ contentDir: dir })).ok).toBe(false);
    expect(await readFile(cache)).toEqual(before);
    expect(existsSync(`${cache}.journal`)).toBe(false);
  });
});
