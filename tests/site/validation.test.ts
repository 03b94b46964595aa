import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadContent } from '../../site/content/loadContent.ts';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { FIXTURE_SITE, contentProblems, fixtureCopy } from './helpers.ts';

const article = (fields: Record<string, string>, body = '## Heading\n\nText.\n') =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n---\n${body}`;

const good = {
  title: 'A title',
  slug: 'a-title',
  description: 'A description.',
  author: 'Mara Lindqvist',
  date: '2026-01-01',
  locale: 'en_US',
  entities: '\n  - category: bettingStrategies',
};

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  return contentProblems(await fixtureCopy(files));
}

describe('article validation', () => {
  it('loads the fixture site without problems', async () => {
    expect(await problemsOf({})).toEqual([]);
  });

  it('refuses a date the calendar does not have, written plain or quoted, and keeps every real one (issue 16)', async () => {
    const problems = await problemsOf({
      'articles/en_US/feb-30.md': article({ ...good, slug: 'feb-30', date: '2026-02-30' }),
      'articles/en_US/apr-31.md': article({ ...good, slug: 'apr-31', date: '2026-04-31  # a comment', updated: '"2025-02-29"' }),
      'articles/en_US/leap-day.md': article({ ...good, slug: 'leap-day', date: '2024-02-29', updated: "'2026-03-14'" }),
    });
    expect(problems).toEqual([
      expect.stringMatching(/apr-31\.md:6 field "date": date must be a real calendar date/),
      expect.stringMatching(/apr-31\.md:10 field "updated": updated must be a real calendar date/),
      expect.stringMatching(/feb-30\.md:6 field "date": date must be a real calendar date/),
    ]);
    const content = await loadContent(
      await fixtureCopy({ 'articles/en_US/leap-day.md': article({ ...good, slug: 'leap-day', date: '2024-02-29', updated: "'2026-03-14'" }) }),
    );
    expect(content.articles.en_US.find((a) => a.slug === 'leap-day')).toMatchObject({ date: '2024-02-29', updated: '2026-03-14' });
  });

  it('reports every problem of every file in one run, with file, line and field', async () => {
    const problems = await problemsOf({
      'articles/en_US/bad-yaml.md': '---\ntitle: [unclosed\nslug: bad-yaml\n---\nText\n',
      'articles/en_US/no-title.md': article({ ...good, title: '', slug: 'no-title' }),
      'articles/en_US/Bad_Slug.md': article({ ...good, slug: 'Bad_Slug' }),
      'articles/en_US/ghost-author.md': article({ ...good, slug: 'ghost-author', author: 'Nobody Known' }),
      'articles/en_US/no-category.md': article({ ...good, slug: 'no-category', entities: '\n  - category: astrology' }),
      'articles/en_US/dupe-one.md': article({ ...good, slug: 'dupe-one' }),
      'articles/en_US/wrong-name.md': article({ ...good, slug: 'dupe-one' }),
      'articles/en_US/empty.md': '',
      'articles/en_US/bad-date.md': article({ ...good, slug: 'bad-date', date: 'next tuesday' }),
    });
    if (process.env.DEBUG_PROBLEMS) console.log(problems.join('\n'));
    const find = (pattern: RegExp) => problems.filter((p) => pattern.test(p));
    expect(find(/bad-yaml\.md.*not valid YAML/)).toHaveLength(1);
    expect(find(/no-title\.md:2 field "title": title (is required|must not be empty)/)).toHaveLength(1);
    expect(find(/Bad_Slug\.md:3 field "slug": slug must be lowercase ASCII kebab-case/)).toHaveLength(1);
    expect(find(/ghost-author\.md:\d+ field "author": author "Nobody Known" is not in authors\.json/)).toHaveLength(1);
    expect(find(/no-category\.md:\d+ field "entities": no known category among "astrology"/)).toHaveLength(1);
    expect(find(/wrong-name\.md:3 field "slug": slug "dupe-one" differs from the file name "wrong-name\.md"/)).toHaveLength(1);
    expect(find(/empty\.md: file is empty/)).toHaveLength(1);
    expect(find(/bad-date\.md:6 field "date": date must be an ISO date/)).toHaveLength(1);
  });

  it('names both files when two articles share a slug', async () => {
    // A copy of poker-basics.md under another name, its slug left unchanged.
    const problems = await problemsOf({ 'articles/en_US/poker-basics-copy.md': article({ ...good, slug: 'poker-basics' }) });
    const dupes = problems.filter((p) => p.includes('slug "poker-basics" is used by 2 articles'));
    expect(dupes).toHaveLength(2);
    for (const line of dupes) expect(line).toMatch(/is used by 2 articles: \S*poker-basics(-copy)?\.md, \S*poker-basics(-copy)?\.md/);
  });

  it('says plainly when the content folder is not there', async () => {
    await expect(loadContent('/no/such/content')).rejects.toThrow('there is no content folder at /no/such/content');
    // A file named as the content folder (`--content content/site.json`) is said to be a file, not missing.
    await expect(loadContent(path.join(FIXTURE_SITE, 'site.json'))).rejects.toThrow(/site\.json is a file, not a content folder$/);
  });

  it('ignores dot files that editors and operating systems leave beside articles', async () => {
    expect(await problemsOf({ 'articles/en_US/._first-steps.md': '\u0000\u0005Mac OS X resource fork', 'articles/en_US/.#draft.md': 'lock' })).toEqual([]);
  });

  it('accepts a byte-order mark and CRLF line ends', () => {
    const source = '\uFEFF' + article({ ...good }).replace(/\n/g, '\r\n');
    const parsed = parseArticle(source, 'articles/en_US/a-title.md', 'en_US');
    expect(parsed.problems).toEqual([]);
    expect(parsed.article?.title).toBe('A title');
  });

  it('refuses JavaScript frontmatter instead of running it', () => {
    const source = '---js\n{ title: (globalThis.__pwned = 1, "x") }\n---\nBody\n';
    const parsed = parseArticle(source, 'articles/en_US/x.md', 'en_US');
    expect((globalThis as Record<string, unknown>).__pwned).toBeUndefined();
    expect(parsed.problems[0]?.message).toMatch(/not valid YAML: frontmatter in JavaScript is not accepted/);
  });

  it('refuses binary data and slugs that try to leave their folder', () => {
    expect(parseArticle('\u0000\u0001PNG', 'x.md', 'en_US').problems[0]?.message).toMatch(/binary/);
    for (const slug of ['../etc/passwd', '/abs', '..%2fx', 'a\\b', 'ａbc', 'x\u0000y']) {
      const parsed = parseArticle(article({ ...good, slug: JSON.stringify(slug) }), 'articles/en_US/x.md', 'en_US');
      expect(parsed.problems.map((p) => p.field)).toContain('slug');
    }
  });
});
