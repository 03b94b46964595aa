/**
 * Issue 12, item 5: `felt retract` takes an article back. Against the
 * loopback GCS server (real client) and the local folder storage: the record
 * in production, the article gone from production and dev, `felt pull`
 * bringing the record into content/, and the next build answering the old
 * address through `felt serve` with 410 and the gone page, or with a
 * redirect; nothing else of the site mentions the article any more. Bad
 * input: one felt: line, exit 1, nothing changed.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../cli/main.ts';
import { pull } from '../../../cli/pull.ts';
import { retract } from '../../../cli/retract.ts';
import { buildSite } from '../../../site/build/build.ts';
import { startServer } from '../../../site/serve/server.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { fixtureCopy, tempDir } from '../../site/helpers.ts';
import { articlePath, fixtureArticle, openBucket, putArticle, quiet, storageChoice } from './helpers.ts';
import { LIMITS } from '../../../shared/limits.ts';

let gcs: FakeGcs;
beforeAll(async () => void (gcs = await startFakeGcs()));
afterAll(() => gcs.close());
beforeEach(() => gcs.buckets.clear());
afterEach(() => vi.restoreAllMocks());

async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe.each(['local', 'gcs'] as const)('%s storage', (kind) => {
  it('retracts: record in production, article out of both buckets; pull + build answer 410 or redirect, and nothing else links it', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    const prod = await openBucket(contentDir, choice, 'prod');
    const dev = await openBucket(contentDir, choice, 'dev');
    for (const bucket of [prod, dev]) {
      await putArticle(bucket, 'river-bets', 'River Bets', { date: '2025-11-02' });
      await putArticle(bucket, 'moved-guide', 'Moved Guide', { date: '2025-11-03' });
      await putArticle(bucket, 'kept-guide', 'Kept Guide', { date: '2025-11-04' });
    }
    // The redirect target below: published, as a redirect to an article must be.
    await prod.write('articles/en_US/poker-basics.md', await readFile(articlePath(contentDir, 'poker-basics')), {
      contentType: 'text/markdown; charset=utf-8',
    });
    await pull({ contentDir, storage: choice, reporter: quiet().reporter });
    expect(existsSync(articlePath(contentDir, 'river-bets'))).toBe(true);

    const dry = quiet();
    await retract({ contentDir, slug: 'river-bets', reason: 'wrong odds', by: 'night editor', dryRun: true, storage: choice, reporter: dry.reporter });
    expect(dry.streams.out()).toMatch(/retract en_US\/river-bets \("River Bets"\): answered 410 Gone/);
    expect(await prod.stat('articles/en_US/river-bets.md')).toBeDefined();
    expect(await prod.stat('retracted/en_US/river-bets.json')).toBeUndefined();

    await retract({ contentDir, slug: 'river-bets', reason: 'wrong odds', by: 'night editor', storage: choice, reporter: quiet().reporter });
    await retract({ contentDir, slug: 'moved-guide', redirect: '/articles/poker-basics', by: 'night editor', storage: choice, reporter: quiet().reporter });
    expect(await prod.stat('articles/en_US/river-bets.md')).toBeUndefined();
    expect(await dev.stat('articles/en_US/river-bets.md')).toBeUndefined();
    const record = JSON.parse((await prod.read('retracted/en_US/river-bets.json', { maxBytes: LIMITS.retractionBytes })).toString('utf8'));
    expect(record).toMatchObject({ slug: 'river-bets', locale: 'en_US', title: 'River Bets', by: 'night editor', reason: 'wrong odds' });
    expect(Date.parse(record.retractedAt)).toBeGreaterThan(0);

    // A pull without --delete: the retraction removes the article file all the same.
    const pulled = await pull({ contentDir, storage: choice, reporter: quiet().reporter });
    expect(pulled.retracted?.removed.map((f) => path.basename(f)).sort()).toEqual(['moved-guide.md', 'river-bets.md']);
    expect(existsSync(articlePath(contentDir, 'river-bets'))).toBe(false);
    expect(existsSync(path.join(contentDir, 'retracted', 'en_US', 'river-bets.json'))).toBe(true);

    const dist = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir, outDir: dist, threads: 1 });
    const server = await startServer({ root: dist, port: 0 });
    try {
      const gone = await fetch(`${server.url}/articles/river-bets`);
      expect(gone.status).toBe(410);
      const goneHtml = await gone.text();
      expect(goneHtml).toContain('This article was removed');
      expect(goneHtml).toContain('“River Bets” is no longer published here.');
      expect(goneHtml).not.toContain('wrong odds');
      expect((await fetch(`${server.url}/articles/river-bets/`)).status).toBe(410);

      const moved = await fetch(`${server.url}/articles/moved-guide`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe('/articles/poker-basics');
      expect((await fetch(`${server.url}/articles/kept-guide`)).status).toBe(200);
    } finally {
      await server.close();
    }
    const realDist = await import('node:fs/promises').then((fs) => fs.realpath(dist));
    const redirectPage = await readFile(path.join(realDist, 'articles/moved-guide/index.html'), 'utf8');
    expect(redirectPage).toContain('<meta http-equiv="refresh" content="0; url=/articles/poker-basics">');
    expect(redirectPage).toContain('<link rel="canonical" href="https://fixture.example/articles/poker-basics">');
    const redirects = await readFile(path.join(realDist, '_redirects'), 'utf8');
    expect(redirects).toContain('/articles/moved-guide /articles/poker-basics 301!');
    expect(redirects).toContain('/articles/river-bets /articles/river-bets/index.html 410!');
    // Sitemap, feeds, search index, listings, related links, page data: no file but the two answers names them.
    const mentions = [];
    for (const file of await filesOf(realDist)) {
      if (file === '_redirects' || file.startsWith('.felt')) continue;
      const text = await readFile(path.join(realDist, file), 'utf8').catch(() => '');
      for (const slug of ['river-bets', 'moved-guide', 'River Bets']) if (text.includes(slug)) mentions.push(`${file}: ${slug}`);
    }
    expect(mentions).toEqual(['articles/river-bets/index.html: River Bets']);
    const kept = await readFile(path.join(realDist, 'articles/kept-guide/index.html'), 'utf8');
    expect(kept).toContain('Kept Guide');

    // Put back: the record leaves the bucket, the article returns; pull --delete drops the local record too.
    await prod.delete('retracted/en_US/river-bets.json');
    await putArticle(prod, 'river-bets', 'River Bets', { date: '2025-11-02' });
    const back = await pull({ contentDir, delete: true, storage: choice, reporter: quiet().reporter });
    expect(back.retracted?.unretracted.map((f) => path.basename(f))).toEqual(['river-bets.json']);
    expect(existsSync(articlePath(contentDir, 'river-bets'))).toBe(true);
    expect(existsSync(path.join(contentDir, 'retracted', 'en_US', 'river-bets.json'))).toBe(false);
  });

  it('--keep-dev leaves the dev copy; a redirect to another host needs --allow-external', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    const prod = await openBucket(contentDir, choice, 'prod');
    const dev = await openBucket(contentDir, choice, 'dev');
    await putArticle(prod, 'river-bets', 'River Bets');
    await putArticle(dev, 'river-bets', 'River Bets');
    await expect(
      retract({ contentDir, slug: 'river-bets', redirect: 'https://elsewhere.example/odds', storage: choice, reporter: quiet().reporter }),
    ).rejects.toThrow(/--redirect "https:\/\/elsewhere.example\/odds" leads to another site \(elsewhere.example\)/);
    expect(await prod.stat('articles/en_US/river-bets.md')).toBeDefined();
    await retract({
      contentDir,
      slug: 'river-bets',
      redirect: 'https://elsewhere.example/odds',
      allowExternal: true,
      keepDev: true,
      storage: choice,
      reporter: quiet().reporter,
    });
    expect(await prod.stat('articles/en_US/river-bets.md')).toBeUndefined();
    expect(await dev.stat('articles/en_US/river-bets.md')).toBeDefined();
    expect(JSON.parse((await prod.read('retracted/en_US/river-bets.json', { maxBytes: LIMITS.retractionBytes })).toString()).redirect).toBe(
      'https://elsewhere.example/odds',
    );
  });
});

describe('felt retract on the command line', () => {
  it.each([
    [['--slug', 'no-such-article'], /^felt: no article "no-such-article" in .* \(en_US, ru_RU, tr_TR\)\. check the slug and --locale/],
    [['--slug', 'river-bets', '--redirect', 'https://elsewhere.example/x'], /^felt: --redirect "https:\/\/elsewhere.example\/x" leads to another site/],
    [['--slug', 'river-bets', '--redirect', 'javascript:alert(1)'], /^felt: --redirect "javascript:alert\(1\)" is not a path of this site/],
    [['--slug', 'river-bets', '--redirect', '//elsewhere.example/x'], /^felt: --redirect "\/\/elsewhere.example\/x" is not a path of this site/],
    [['--slug', 'river-bets', '--redirect', '/articles/river-bets/'], /^felt: --redirect "\/articles\/river-bets\/" is the retracted article's own address/],
    // An article production does not hold: readers would be sent to a 404.
    [
      ['--slug', 'river-bets', '--redirect', '/articles/no-such-slug'],
      /^felt: --redirect "\/articles\/no-such-slug" leads to no article: "no-such-slug" is not in .* \(en_US\)\. redirect to a published article .*or leave --redirect out/,
    ],
    [
      ['--slug', 'river-bets', '--redirect', 'https://fixture.example/articles/no-such-slug/?from=old'],
      /^felt: --redirect "https:\/\/fixture\.example\/articles\/no-such-slug\/\?from=old" leads to no article: "no-such-slug" is not in /,
    ],
    [['--slug', 'river-bets', '--redirect', '/articles/Not_A_Slug'], /^felt: --redirect "\/articles\/Not_A_Slug" leads to no article/],

    // A flag the record cannot keep is a felt: line before anything is written, not a schema dump and exit 70.
    [['--slug', 'river-bets', '--by', ''], /^felt: --by is empty\. name who retracts/],
  ])('refuses %j with one felt: line, exit 1, and changes nothing', async (args, message) => {
    await expectRefused(args, message);
  });
});

/** `felt retract <args>` against a bucket holding river-bets: one felt: line matching `message`, exit 1, nothing written. */
async function expectRefused(args: readonly string[], message: RegExp): Promise<void> {
  const contentDir = await fixtureCopy();
  const prod = await openBucket(contentDir, { storage: 'local' }, 'prod');
  await putArticle(prod, 'river-bets', 'River Bets');
  const printed: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void printed.push(parts.join(' ')));
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as never);
  vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as never);
  try {
    expect(await main(['node', 'felt', 'retract', ...args, '--content', contentDir, '--storage', 'local']), args[2]).toBe(1);
    expect(printed, args[2]).toHaveLength(1);
    expect(printed[0], args[2]).toMatch(message);
  } finally {
    vi.restoreAllMocks();
  }
  expect(await prod.stat('articles/en_US/river-bets.md')).toBeDefined();
  expect(await prod.list('retracted/')).toEqual([]);
}

describe('felt retract --redirect to an article of this site', () => {
  it('takes one production holds in each locale retracted; one missing in a locale is refused, and --locale retracts where it exists', async () => {
    const contentDir = await fixtureCopy();
    const prod = await openBucket(contentDir, { storage: 'local' }, 'prod');
    for (const locale of ['en_US', 'ru_RU']) await putArticle(prod, 'river-bets', 'River Bets', { locale });
    await putArticle(prod, 'kept-guide', 'Kept Guide');
    const storage = { storage: 'local' } as const;
    await expect(retract({ contentDir, slug: 'river-bets', redirect: '/articles/kept-guide', storage, reporter: quiet().reporter })).rejects.toMatchObject({
      code: 'NOT_IN_PRODUCTION',
      message: expect.stringMatching(/^--redirect "\/articles\/kept-guide" leads to no article: "kept-guide" is not in .* \(ru_RU\)$/),
      hint: expect.stringContaining('retract one locale at a time with --locale'),
    });
    expect(await prod.list('retracted/')).toEqual([]);
    await retract({ contentDir, slug: 'river-bets', locales: ['en_US'], redirect: '/articles/kept-guide/', storage, reporter: quiet().reporter });
    expect(JSON.parse((await prod.read('retracted/en_US/river-bets.json', { maxBytes: LIMITS.retractionBytes })).toString()).redirect).toBe(
      '/articles/kept-guide/',
    );
    expect(await prod.stat('articles/ru_RU/river-bets.md')).toBeDefined();
    // A page of the site that is not an article is taken as it is.
    await retract({ contentDir, slug: 'river-bets', redirect: '/poker-guides', storage, reporter: quiet().reporter });
    expect(JSON.parse((await prod.read('retracted/ru_RU/river-bets.json', { maxBytes: LIMITS.retractionBytes })).toString()).redirect).toBe('/poker-guides');
  });
});

describe('felt retract with a --by or --reason longer than the record keeps', () => {
  it('refuses it with one felt: line, exit 1, and changes nothing', async () => {
    await expectRefused(['--slug', 'river-bets', '--by', 'x'.repeat(201)], /^felt: --by is 201 characters long, more than the record keeps \(200\)/);
    await expectRefused(
      ['--slug', 'river-bets', '--reason', 'r'.repeat(10_001)],
      /^felt: --reason is 10001 characters long, more than the record keeps \(10000\)/,
    );
  });
});

describe('felt retract with FELT_OPERATOR set but empty', () => {
  it('takes the login name, as when it is unset, and writes the record', async () => {
    const contentDir = await fixtureCopy();
    const prod = await openBucket(contentDir, { storage: 'local' }, 'prod');
    await putArticle(prod, 'river-bets', 'River Bets');
    vi.stubEnv('FELT_OPERATOR', '');
    try {
      await retract({ contentDir, slug: 'river-bets', storage: { storage: 'local' }, reporter: quiet().reporter });
    } finally {
      vi.unstubAllEnvs();
    }
    const record = JSON.parse((await prod.read('retracted/en_US/river-bets.json', { maxBytes: LIMITS.retractionBytes })).toString('utf8')) as { by: string };
    expect(record.by.length).toBeGreaterThan(0);
    expect(await prod.stat('articles/en_US/river-bets.md')).toBeUndefined();
  });
});

describe('the gone page in every interface language', () => {
  it.each(['en', 'tr', 'ru', 'ko'] as const)('%s: heading and text from locales/%s.json', async (ui) => {
    const contentDir = await fixtureCopy();
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.join(contentDir, 'retracted', 'en_US'), { recursive: true });
    const record = { slug: 'river-bets', locale: 'en_US', title: 'River Bets', retractedAt: '2026-03-01T02:00:00.000Z', by: 'editor' };
    await writeFile(path.join(contentDir, 'retracted', 'en_US', 'river-bets.json'), JSON.stringify(record));
    const messages = JSON.parse(await readFile(path.join(import.meta.dirname, '../../../locales', `${ui}.json`), 'utf8')) as Record<string, string>;
    const { buildSiteInMemory } = await import('../../../site/build/build.ts');
    const site = await buildSiteInMemory({ contentDir, ui });
    const html = String(site.files.get('articles/river-bets/index.html'));
    expect(html).toContain(`<h1>${messages['gone.heading']}</h1>`);
    expect(html).toContain(messages['gone.body']!.replace('{title}', 'River Bets').replace(/"/g, '&quot;'));
  });
});

describe('a retraction record from the bucket is content like any other', () => {
  it('a record whose redirect is not a site path or an http(s) address is refused at its field, and nothing is built', async () => {
    const contentDir = await fixtureCopy();
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.join(contentDir, 'retracted', 'en_US'), { recursive: true });
    const record = {
      slug: 'river-bets',
      locale: 'en_US',
      title: 'River Bets',
      retractedAt: '2026-03-01T02:00:00.000Z',
      by: 'x',
      redirect: 'javascript:alert(1)',
    };
    await writeFile(path.join(contentDir, 'retracted', 'en_US', 'river-bets.json'), JSON.stringify(record, null, 2));
    const { contentProblems } = await import('../../site/helpers.ts');
    expect(await contentProblems(contentDir)).toEqual([
      expect.stringMatching(/retracted\/en_US\/river-bets\.json:7 field "redirect".*must be a path of the site or an http\(s\) address/),
    ]);
  });
});

describe('felt retract against a production edit made meanwhile', () => {
  it('does not delete a version published after its plan: one felt error, the new version kept, a rerun finishes', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice('gcs', gcs);
    const prod = await openBucket(contentDir, choice, 'prod');
    await putArticle(prod, 'river-bets', 'River Bets');
    let edited = false;
    gcs.afterChange = (bucket) => {
      // Right after the record is written, another writer publishes a new version.
      if (bucket !== 'felt-magazine' || edited) return;
      edited = true;
      gcs.put('felt-magazine', 'articles/en_US/river-bets.md', fixtureArticle('river-bets', 'River Bets, Fixed'));
    };
    try {
      await expect(retract({ contentDir, slug: 'river-bets', storage: choice, reporter: quiet().reporter })).rejects.toMatchObject({
        code: 'STORAGE_PRECONDITION_FAILED',
        message: expect.stringContaining('changed while it was being retracted'),
      });
    } finally {
      gcs.afterChange = undefined;
    }
    expect((await prod.read('articles/en_US/river-bets.md', { maxBytes: LIMITS.articleBytes })).toString()).toContain('River Bets, Fixed');
    await retract({ contentDir, slug: 'river-bets', storage: choice, reporter: quiet().reporter });
    expect(await prod.stat('articles/en_US/river-bets.md')).toBeUndefined();
    expect(JSON.parse((await prod.read('retracted/en_US/river-bets.json', { maxBytes: LIMITS.retractionBytes })).toString()).title).toBe('River Bets, Fixed');
  });
});

describe('felt pull after a retraction', () => {
  it('counts the retracted article files it removed in its summary line (it printed "deleted 0")', async () => {
    const contentDir = await fixtureCopy();
    const prod = await openBucket(contentDir, { storage: 'local' }, 'prod');
    await putArticle(prod, 'river-bets', 'River Bets');
    await putArticle(prod, 'kept-guide', 'Kept Guide');
    await pull({ contentDir, storage: { storage: 'local' }, reporter: quiet().reporter });
    await retract({ contentDir, slug: 'river-bets', reason: 'wrong odds', by: 'night editor', storage: { storage: 'local' }, reporter: quiet().reporter });
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as never);
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as never);
    try {
      expect(await main(['node', 'felt', 'pull', '--content', contentDir, '--storage', 'local'])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    expect(existsSync(articlePath(contentDir, 'river-bets'))).toBe(false);
    expect(printed.join('')).toMatch(/^pulled 0, deleted 1 \(1 retracted\), 1 unchanged$/m);
  });
});

describe('felt pull --delete of an article edited here and retracted in production', () => {
  it('removes it as retracted and does not also say it kept it', async () => {
    const contentDir = await fixtureCopy();
    const local = { storage: 'local' } as const;
    const prod = await openBucket(contentDir, local, 'prod');
    await putArticle(prod, 'river-bets', 'River Bets');
    await putArticle(prod, 'kept-guide', 'Kept Guide');
    await pull({ contentDir, storage: local, reporter: quiet().reporter });
    const file = articlePath(contentDir, 'river-bets');
    await writeFile(file, (await readFile(file, 'utf8')).replace('River Bets', 'River Bets, edited here'));
    await retract({ contentDir, slug: 'river-bets', reason: 'wrong odds', by: 'night editor', storage: local, reporter: quiet().reporter });
    const pulled = await pull({ contentDir, delete: true, storage: local, reporter: quiet().reporter });
    expect(pulled.retracted?.removed).toEqual([file]);
    expect(pulled.skipped).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });
});
