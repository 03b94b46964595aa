/**
 * YAML frontmatter of articles and info pages, read by `yaml`: every problem
 * names the line of its field, a block that is not YAML felt reads (bad
 * syntax, an alias bomb, a tag) is one line with its position, and dates
 * mean what js-yaml made of them. Info pages go through the same path as
 * articles, so `felt check` and `felt build` report their broken YAML as a
 * problem, not as a crash.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../../shared/errors.ts';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { runFelt, STACK_TRACE } from '../support/cli.ts';
import { fixtureCopy, VALID_FRONTMATTER } from './helpers.ts';

const FIELDS = VALID_FRONTMATTER;

/** An article whose frontmatter lines are FIELDS with some replaced or added. */
function article(replace: Record<string, string> = {}, extra: string[] = []): string {
  const lines = FIELDS.map((line) => replace[line.split(':')[0]!] ?? line);
  return `---\n${[...lines, ...extra].join('\n')}\n---\n## Heading\n\nText.\n`;
}

const parse = (source: string) => parseArticle(source, 'articles/en_US/a-title.md', 'en_US');

describe('article frontmatter', () => {
  it('reads dates as js-yaml did: a plain date, a timestamp (its UTC day) and a quoted date', () => {
    expect(parse(article({ date: 'date: 2024-05-01' })).article?.date).toBe('2024-05-01');
    expect(parse(article({ date: 'date: 2024-05-01T23:30:00-05:00' })).article?.date).toBe('2024-05-02');
    expect(parse(article({ date: 'date: "2024-05-01"' })).article?.date).toBe('2024-05-01');
    expect(parse(article({ date: 'date: 2024-05-01' }, ['updated: 2024-06-01'])).article?.updated).toBe('2024-06-01');
  });

  it('refuses a timestamp the calendar or the clock does not have, instead of rolling it over to another day', () => {
    const problemsOf = (date: string) => parse(article({ date: `date: ${date}` })).problems.map(formatProblem);
    const notReal = 'articles/en_US/a-title.md:6 field "date": date must be a real calendar date (no February 30, no April 31)';
    const notIso = 'articles/en_US/a-title.md:6 field "date": date must be an ISO date like 2026-03-14';
    expect(problemsOf('2026-02-30T10:00:00Z')).toEqual([notReal]);
    expect(problemsOf('2026-2-30')).toEqual([notReal]);
    expect(problemsOf('2026-13-01T00:00:00Z')).toEqual([notIso]);
    expect(problemsOf('2026-02-16T25:99:00Z')).toEqual([notIso]);
    expect(problemsOf('2026-02-16T10:00:60Z')).toEqual([notIso]);
    expect(problemsOf('2026-02-16T10:00:00+29')).toEqual([notIso]);
    // Not text at all: a number (a Unix time), a list.
    expect(problemsOf('1700000000')).toEqual([notIso]);
    expect(problemsOf('[2026-01-01]')).toEqual([notIso]);
    // What the calendar has still reads as before: a zone's offset, a leap day, a short month or day.
    expect(parse(article({ date: 'date: 2024-02-29T23:59:59.5+00:30' })).article?.date).toBe('2024-02-29');
    expect(parse(article({ date: 'date: 2024-02-29T23:30:00-05:00' })).article?.date).toBe('2024-03-01');
    expect(parse(article({ date: 'date: 2026-3-4' })).article?.date).toBe('2026-03-04');
  });

  it('puts a problem inside a list on the line of that item, not on the line of the list', () => {
    const source = article({}, ['  - category: pokerGuides', '    subcategories:', '      - subcategory: Tournaments', '      - subcategory: [not, text]']);
    expect(parse(source).problems.map(formatProblem)).toEqual([
      'articles/en_US/a-title.md:13 field "entities.1.subcategories.1.subcategory": entities.1.subcategories.1.subcategory must be a string',
    ]);
  });

  it('refuses an alias bomb ("billion laughs") with one line, without expanding it', () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9)
          .fill(`*${'abcdefghi'[i - 1]}`)
          .join(', ')}]`,
      );
    const started = performance.now();
    const { problems, article: parsed } = parse(article({}, levels));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parsed).toBeUndefined();
    expect(problems.map(formatProblem)).toEqual([
      'articles/en_US/a-title.md:11: frontmatter is not valid YAML: its aliases (*name) expand to too much data (more than the limit of 50 aliases) (write the values out instead of repeating aliases)',
    ]);
  });

  it("refuses tags outside YAML's core schema, with their line", () => {
    for (const tagged of ['title: !!binary aGVsbG8=', 'title: !custom A title']) {
      const { problems } = parse(article({ title: tagged }));
      expect(problems, tagged).toHaveLength(1);
      expect(formatProblem(problems[0]!), tagged).toMatch(/^articles\/en_US\/a-title\.md:2: frontmatter is not valid YAML: .*tag/);
    }
  });

  it('names the line of a syntax error and of a duplicate key', () => {
    expect(parse(article({ description: 'description: [unclosed' })).problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^articles\/en_US\/a-title\.md:4: frontmatter is not valid YAML: /),
    ]);
    expect(parse(article({}, ['title: Again'])).problems.map(formatProblem)).toEqual([
      expect.stringMatching(/^articles\/en_US\/a-title\.md:10: frontmatter is not valid YAML: Map keys must be unique/),
    ]);
  });
});

describe('info pages with broken YAML (issue 11)', () => {
  let contentDir: string;
  const BROKEN = '---\ntitle: About us\ndescription: [unclosed\n---\nWho we are.\n';

  beforeAll(async () => {
    contentDir = await fixtureCopy();
    await writeFile(path.join(contentDir, 'pages', 'en', 'about-us.md'), BROKEN);
  }, 120_000);

  it('are one problem with file and line for `felt check`, exit 1, no stack trace', async () => {
    const run = await runFelt(['check', '--content', contentDir], { timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_TRACE);
    expect(run.stderr).not.toContain('unexpected failure');
    const named = run.stdout.split('\n').filter((line) => line.includes('about-us.md'));
    expect(named).toEqual([expect.stringMatching(/^error +\S*pages\/en\/about-us\.md:3: frontmatter is not valid YAML: .+\(check quoting and indentation\)$/)]);
  });

  it('are one problem with file and line for `felt build`, exit 1, no stack trace, nothing written', async () => {
    const out = path.join(path.dirname(contentDir), 'dist');
    const run = await runFelt(['build', '--content', contentDir, '--out', out], { timeoutMs: 90_000 });
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_TRACE);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^\S*pages\/en\/about-us\.md:3: frontmatter is not valid YAML: /),
      expect.stringMatching(/^felt: 1 problem in content/),
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
