/**
 * The article cache between builds: a night that adds a few articles appends
 * them to a journal instead of rewriting the whole cache, a crash that cuts
 * the journal short costs only the entry it cut, and deleted files drop out.
 */
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArticleCache } from '../../site/content/articleCache.ts';
import type { Article } from '../../shared/types.ts';
import { tempDir } from './helpers.ts';

function article(slug: string): Article {
  return {
    id: slug,
    file: `content/articles/en_US/${slug}.md`,
    slug,
    title: `Title of ${slug}`,
    description: 'A description.',
    author: 'Colette Marchand',
    date: '2026-03-01',
    locale: 'en_US',
    entities: [{ category: 'bettingStrategies', subcategories: [{ subcategory: 'basics', subsubcategories: [] }] }],
    source: `/src/${slug}.md`,
    words: 120,
    digest: `digest-${slug}`,
  };
}

/** A cache holding `count` articles, saved as a base file. */
async function cacheWith(count: number) {
  const file = path.join(await tempDir(), 'articles.json');
  const first = ArticleCache.open(file, 'v1');
  for (let i = 0; i < count; i++) first.set(`/src/a${i}.md`, 100 + i, 1000 + i, article(`a${i}`));
  first.save();
  return file;
}

describe('the article cache', () => {
  it('appends a night of new articles to its journal and leaves the base file alone', async () => {
    const file = await cacheWith(50);
    const baseBytes = readFileSync(file);
    const baseTime = statSync(file).mtimeMs;

    const night = ArticleCache.open(file, 'v1');
    for (let i = 0; i < 50; i++) expect(night.get(`/src/a${i}.md`, 100 + i, 1000 + i, 'shown.md')?.title).toBe(`Title of a${i}`);
    night.set('/src/new.md', 7, 8, article('new'));
    night.save();
    expect(readFileSync(file)).toEqual(baseBytes);
    expect(statSync(file).mtimeMs).toBe(baseTime);
    expect(readFileSync(`${file}.journal`, 'utf8').trim().split('\n')).toHaveLength(1);

    const next = ArticleCache.open(file, 'v1');
    expect(next.get('/src/new.md', 7, 8, 'shown.md')).toMatchObject({ slug: 'new', source: '/src/new.md', words: 120, entities: article('new').entities });
    // From the base and from the journal, an article's entities come back as they were set.
    expect(next.get('/src/a2.md', 102, 1002, 'shown.md')?.entities).toEqual(article('a2').entities);
    expect(next.get('/src/a3.md', 103, 1003, 'content/articles/a3.md')).toMatchObject({ slug: 'a3', file: 'content/articles/a3.md' });
    // Changed size or time: parsed again.
    expect(next.get('/src/a4.md', 999, 1004, 'shown.md')).toBeUndefined();
  });

  it('skips a journal line cut short by a crash, and keeps the others', async () => {
    const file = await cacheWith(5);
    const night = ArticleCache.open(file, 'v1');
    for (let i = 0; i < 5; i++) night.get(`/src/a${i}.md`, 100 + i, 1000 + i, 'shown.md');
    night.set('/src/whole.md', 1, 2, article('whole'));
    night.save();
    appendFileSync(`${file}.journal`, '["/src/cut.md",3,4,"cut","cut","Tit');

    const next = ArticleCache.open(file, 'v1');
    expect(next.get('/src/whole.md', 1, 2, 'shown.md')?.slug).toBe('whole');
    expect(next.get('/src/cut.md', 3, 4, 'shown.md')).toBeUndefined();
    expect(next.get('/src/a0.md', 100, 1000, 'shown.md')?.slug).toBe('a0');
  });

  it('writes a new base without the journal when files are deleted', async () => {
    const file = await cacheWith(5);
    const night = ArticleCache.open(file, 'v1');
    night.set('/src/new.md', 7, 8, article('new'));
    for (let i = 0; i < 4; i++) night.get(`/src/a${i}.md`, 100 + i, 1000 + i, 'shown.md'); // a4.md was deleted
    night.save();
    expect(existsSync(`${file}.journal`)).toBe(false);

    const next = ArticleCache.open(file, 'v1');
    expect(next.get('/src/a4.md', 104, 1004, 'shown.md')).toBeUndefined();
    expect(next.get('/src/new.md', 7, 8, 'shown.md')?.slug).toBe('new');
    expect(next.get('/src/a0.md', 100, 1000, 'shown.md')?.slug).toBe('a0');
  });

  it('folds the journal into the base once it outgrows its share', async () => {
    const file = await cacheWith(10);
    let journalled = 0;
    for (let night = 0; night < 3; night++) {
      const cache = ArticleCache.open(file, 'v1');
      for (let i = 0; i < 10; i++) cache.get(`/src/a${i}.md`, 100 + i, 1000 + i, 'shown.md');
      for (let j = 0; j < journalled; j++) cache.get(`/src/n${j}.md`, 1, j, 'shown.md');
      for (let k = 0; k < 400; k++) cache.set(`/src/n${journalled + k}.md`, 1, journalled + k, article(`n${journalled + k}`));
      journalled += 400;
      cache.save();
    }
    // 800 rows fit the journal (at least 1,000 are allowed); the third night's 400 more do not.
    expect(existsSync(`${file}.journal`)).toBe(false);
    const next = ArticleCache.open(file, 'v1');
    expect(next.get('/src/n1199.md', 1, 1199, 'shown.md')?.slug).toBe('n1199');
    expect(next.get('/src/a9.md', 109, 1009, 'shown.md')?.slug).toBe('a9');
  });

  it('gives back every field as it was set, from the base and from the journal: shared values, an id that is not the slug, fields left out', async () => {
    const file = path.join(await tempDir(), 'articles.json');
    const varied: Article[] = [
      { ...article('plain'), author: 'Yuki Hanamura', date: '2026-03-02' },
      { ...article('renamed'), id: 'kept-id', updated: '2026-04-01', translationKey: 'tk-1', draft: 'new' },
      { ...article('unfiled'), entities: [], locale: 'ru_RU' },
    ];
    const first = ArticleCache.open(file, 'v1');
    varied.forEach((a, i) => first.set(`/src/${a.slug}.md`, i, i, a));
    first.save();
    const night = ArticleCache.open(file, 'v1');
    varied.forEach((_, i) => night.get(`/src/${varied[i]!.slug}.md`, i, i, 'shown.md'));
    const late = { ...article('late'), id: 'late-id', author: 'Yuki Hanamura' };
    night.set('/src/late.md', 9, 9, late);
    night.save();
    expect(existsSync(`${file}.journal`)).toBe(true);

    const next = ArticleCache.open(file, 'v1');
    for (const [i, a] of [...varied.entries(), [9, late] as const]) {
      const { file: _file, ...fields } = a;
      expect(next.get(`/src/${a.slug}.md`, i, i, 'shown.md')).toEqual({ ...fields, file: 'shown.md' });
    }
  });

  it('starts empty from a base cut short, even at the end of a row, rather than read its rows wrongly', async () => {
    const file = await cacheWith(5);
    const whole = readFileSync(file, 'utf8');
    const lines = whole.split('\n');
    for (const cut of [lines.slice(0, -2).join('\n') + '\n', lines.slice(0, 3).join('\n') + '\n', whole.slice(0, whole.length - 9)]) {
      writeFileSync(file, cut);
      expect(ArticleCache.open(file, 'v1').get('/src/a0.md', 100, 1000, 'shown.md')).toBeUndefined();
    }
    writeFileSync(file, whole);
    expect(ArticleCache.open(file, 'v1').get('/src/a0.md', 100, 1000, 'shown.md')?.slug).toBe('a0');
  });

  it('starts empty when felt changed', async () => {
    const file = await cacheWith(3);
    expect(ArticleCache.open(file, 'v2').get('/src/a0.md', 100, 1000, 'shown.md')).toBeUndefined();
  });

  it('is walked in path order: new files between, a changed one, a deleted one, files asked for in any order', async () => {
    const file = path.join(await tempDir(), 'articles.json');
    const names = ['b', 'd', 'f', 'h', 'j'];
    const first = ArticleCache.open(file, 'v1');
    // Set in any order, written in path order: the order a build asks for its files in.
    for (const name of [...names].reverse()) first.set(`/src/${name}.md`, 1, 1, article(name));
    first.save();
    const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1, -1);
    expect(rows.map((row) => (JSON.parse(row) as string[])[0])).toEqual(names.map((n) => `/src/${n}.md`));

    // A night: new files before, between and after the ones it had, and one changed.
    const night = ArticleCache.open(file, 'v1');
    const asked = ['a', 'b', 'c', 'd', 'e', 'f', 'h', 'j', 'k'].map((n) => [n, night.get(`/src/${n}.md`, 1, 1, 'shown.md')?.slug] as const);
    expect(asked).toEqual([
      ['a', undefined],
      ['b', 'b'],
      ['c', undefined],
      ['d', 'd'],
      ['e', undefined],
      ['f', 'f'],
      ['h', 'h'],
      ['j', 'j'],
      ['k', undefined],
    ]);
    night.set('/src/c.md', 1, 1, article('c'));
    night.save();
    expect(readFileSync(`${file}.journal`, 'utf8').trim().split('\n')).toHaveLength(1);

    // The next night: d changed (its journal row stands in for the base's), h was deleted, the rest asked backwards.
    const next = ArticleCache.open(file, 'v1');
    expect(next.get('/src/b.md', 1, 1, 'shown.md')?.slug).toBe('b');
    expect(next.get('/src/c.md', 1, 1, 'shown.md')?.slug).toBe('c');
    expect(next.get('/src/d.md', 2, 2, 'shown.md')).toBeUndefined();
    next.set('/src/d.md', 2, 2, { ...article('d'), title: 'Edited' });
    expect(next.get('/src/j.md', 1, 1, 'shown.md')?.slug).toBe('j');
    expect(next.get('/src/f.md', 1, 1, 'shown.md')?.slug).toBe('f');
    next.save();
    // h is gone: a new base, without it, in path order.
    expect(existsSync(`${file}.journal`)).toBe(false);
    const after = readFileSync(file, 'utf8').trim().split('\n').slice(1, -1);
    expect(after.map((row) => (JSON.parse(row) as string[])[0])).toEqual(['b', 'c', 'd', 'f', 'j'].map((n) => `/src/${n}.md`));
    const last = ArticleCache.open(file, 'v1');
    expect(['b', 'c', 'd', 'f', 'h', 'j'].map((n) => last.get(`/src/${n}.md`, n === 'd' ? 2 : 1, n === 'd' ? 2 : 1, 'shown.md')?.title)).toEqual([
      'Title of b',
      'Title of c',
      'Edited',
      'Title of f',
      undefined,
      'Title of j',
    ]);
  });
});
