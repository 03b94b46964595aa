/**
 * Issue 17, the storage side of "a night that survives a bad night", and
 * issue 14's publish in link order: publish never promotes an invalid object
 * and keeps production's own edits (the publish record), pull skips a bad
 * object without failing the night and refuses an oversized one from the
 * listing, deploy retries a 503 and refuses to empty a bucket by mistake.
 * Through the CLI's entry point (exit codes, printed lines) and the library
 * calls, on the folder bucket and on the real GCS client against the
 * loopback server.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { loadProject } from '../../cli/project.ts';
import { publish } from '../../cli/publish.ts';
import { createReporter } from '../../cli/report.ts';
import { openStorage, type StorageChoice } from '../../cli/storage/index.ts';
import type { Bucket } from '../../cli/storage/types.ts';
import { EXIT } from '../../shared/exitCodes.ts';
import { displayPath } from '../../shared/paths.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { articleSource, captureStreams, makeFixture, type Fixture } from '../support/fixtureSite.ts';
import { LIMITS } from '../../shared/limits.ts';

let gcs: FakeGcs;
let fixture: Fixture;
let printed: string[];

beforeAll(async () => void (gcs = await startFakeGcs()));
afterAll(() => gcs.close());
beforeEach(async () => {
  fixture = await makeFixture();
  gcs.buckets.clear();
  gcs.faults.length = 0;
  gcs.resetLog();
  printed = [];
  process.exitCode = undefined;
  const capture = (chunk: unknown) => (printed.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture as never);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture as never);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(`${args.join(' ')}\n`));
});
afterEach(async () => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  await fixture.cleanup();
});

const quiet = () => {
  const streams = captureStreams();
  return createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false });
};
/** The lines printed, one string each. */
const lines = () => printed.join('').split('\n');
const MD = 'text/markdown; charset=utf-8';

describe.each(['local', 'gcs'] as const)('%s backend', (kind) => {
  const choice = (): StorageChoice => (kind === 'gcs' ? { storage: 'gcs', apiEndpoint: gcs.url } : { storage: 'local' });
  const flags = () => (kind === 'gcs' ? ['--storage', 'gcs', '--storage-endpoint', gcs.url] : ['--storage', 'local']);
  const felt = (...args: string[]) => {
    // main answers process.exitCode when a command set it (exit 2): each run starts without one, as a new process would.
    process.exitCode = undefined;
    return main(['node', 'felt', ...args, ...flags(), '--content', fixture.contentDir]);
  };
  const bucket = async (name: string): Promise<Bucket> => {
    const b = openStorage(await loadProject(fixture.contentDir), choice()).bucket(name);
    if (!(await b.exists())) await b.create();
    return b;
  };
  /** An object as another writer (the generator, an operator's hand) leaves it. */
  const put = async (b: Bucket, name: string, data: string | Buffer) => {
    if (kind === 'gcs') gcs.put(b.name, name, data, { contentType: MD });
    else await b.write(name, Buffer.from(data), { contentType: MD });
  };
  const article = (slug: string, title: string) => articleSource(slug, title);
  const names = async (b: Bucket) => (await b.list('articles/')).map((o) => o.name);

  it('publish checks every object as felt check would, skips each bad one with one line, publishes the rest, exits 2', async () => {
    const dev = await bucket('felt-test-dev');
    await put(dev, 'articles/en_US/alpha.md', article('alpha', 'Alpha'));
    // A name outside the articles/{locale}/{slug}.md shape (GCS accepts "../"; a folder bucket never holds it).
    const badName = kind === 'gcs' ? 'articles/en_US/../../evil.md' : 'articles/en_US/sub/evil.md';
    await put(dev, badName, article('evil', 'Evil'));
    await put(dev, 'articles/en_US/latin.md', Buffer.concat([Buffer.from(article('latin', 'Latin')), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]));
    await put(dev, 'articles/en_US/notes.md', 'Remember to write about pot odds.\n');
    await put(dev, 'articles/en_US/undated.md', article('undated', 'Undated').replace('date: 2026-01-02', 'date: someday'));
    // Valid alone, refused by felt check against the project: an author not in authors.json.
    await put(dev, 'articles/en_US/stranger.md', article('stranger', 'Stranger').replace('author: Mara Lindqvist', 'author: Nobody Known'));

    expect(await felt('publish', '--all', '--yes')).toBe(EXIT.doneWithSkips);
    const prod = await bucket('felt-test');
    expect(await names(prod)).toEqual(['articles/en_US/alpha.md']);
    const skipped = lines().filter((l) => l.startsWith('skipped: '));
    expect(skipped).toHaveLength(5);
    expect(skipped.find((l) => l.includes(badName))).toMatch(/not an article name/);
    expect(skipped.find((l) => l.includes('articles/en_US/latin.md'))).toMatch(/not UTF-8/);
    expect(skipped.find((l) => l.includes('articles/en_US/notes.md'))).toMatch(/invalid article: line 1: no frontmatter found/);
    expect(skipped.find((l) => l.includes('articles/en_US/undated.md'))).toMatch(/invalid article: date/);
    expect(skipped.find((l) => l.includes('articles/en_US/stranger.md'))).toMatch(/invalid article: author: author "Nobody Known" is not in authors\.json/);
    expect(printed.join('')).toContain('publish: done, 5 skipped (listed above)');
  });

  it('pull skips a bad object and one over the size limit without failing the night: exit 2, the good ones written', async () => {
    const prod = await bucket('felt-test');
    await put(prod, 'articles/en_US/good.md', article('good', 'Good'));
    await put(prod, 'articles/en_US/broken.md', '---\ntitle: [\n---\n');
    await put(prod, 'articles/en_US/astrology.md', article('astrology', 'Astrology').replace('category: pokerGuides', 'category: astrology'));
    const huge = article('huge', 'Huge');
    if (kind === 'gcs') {
      // 200 MB by the listing: refused from its size, so not a byte of it is fetched.
      gcs.put('felt-test', 'articles/en_US/huge.md', huge, { contentType: MD, declaredSize: 200 * 1024 * 1024 });
    } else {
      await put(prod, 'articles/en_US/huge.md', huge.replace('Intro.', `Intro. ${'odds '.repeat(300_000)}`));
    }
    gcs.resetLog();
    expect(await felt('pull')).toBe(EXIT.doneWithSkips);
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    expect((await readdir(folder)).sort()).toEqual(['good.md']);
    expect(await readFile(path.join(folder, 'good.md'), 'utf8')).toContain('title: "Good"');
    const skipped = lines().filter((l) => l.startsWith('skipped: '));
    expect(skipped).toHaveLength(3);
    expect(skipped.find((l) => l.includes('articles/en_US/broken.md'))).toMatch(/invalid article/);
    expect(skipped.find((l) => l.includes('articles/en_US/astrology.md'))).toMatch(/invalid article: entities: no known category among "astrology"/);
    expect(skipped.find((l) => l.includes('articles/en_US/huge.md'))).toMatch(/larger than the limit of 1 MB/);
    if (kind === 'gcs') {
      expect(skipped.find((l) => l.includes('huge.md'))).toMatch(/is 200 MB/);
      const downloads = gcs.log.filter((r) => r.kind === 'object.download').map((r) => decodeURIComponent(r.path));
      expect(downloads.filter((p) => p.includes('huge.md'))).toEqual([]);
      expect(downloads.filter((p) => p.includes('good.md'))).toHaveLength(1);
    }
  });

  it('publish keeps what production changed or deleted since it published: a conflict in the plan, overwritten only with --force', async () => {
    const dev = await bucket('felt-test-dev');
    await put(dev, 'articles/en_US/alpha.md', article('alpha', 'Alpha'));
    await put(dev, 'articles/en_US/beta.md', article('beta', 'Beta'));
    expect(await felt('publish', '--all', '--yes')).toBe(EXIT.ok);
    const prod = await bucket('felt-test');
    // In production: a hotfix of alpha, beta taken down. In dev: a new version of alpha.
    await put(prod, 'articles/en_US/alpha.md', article('alpha', 'Alpha, hotfixed'));
    await prod.delete('articles/en_US/beta.md');
    await put(dev, 'articles/en_US/alpha.md', article('alpha', 'Alpha, version 2'));

    printed.length = 0;
    expect(await felt('publish', '--all', '--dry-run')).toBe(EXIT.doneWithSkips);
    expect(lines()).toContain('conflict  articles/en_US/alpha.md: changed in production since felt published it');
    expect(lines()).toContain('conflict  articles/en_US/beta.md: deleted in production since felt published it');
    expect(printed.join('')).toMatch(/plan: 0 new, 0 changed, 0 unchanged, 2 conflicts/);

    expect(await felt('publish', '--all', '--yes')).toBe(EXIT.doneWithSkips);
    expect((await prod.read('articles/en_US/alpha.md', { maxBytes: LIMITS.articleBytes })).toString()).toContain('Alpha, hotfixed');
    expect(await prod.stat('articles/en_US/beta.md')).toBeUndefined();

    expect(await felt('publish', '--all', '--yes', '--force')).toBe(EXIT.ok);
    expect((await prod.read('articles/en_US/alpha.md', { maxBytes: LIMITS.articleBytes })).toString()).toContain('Alpha, version 2');
    expect(await prod.stat('articles/en_US/beta.md')).toBeDefined();
    // Published again: the next dev change is an ordinary change.
    await put(dev, 'articles/en_US/alpha.md', article('alpha', 'Alpha, version 3'));
    const next = await publish({ contentDir: fixture.contentDir, all: true, dryRun: true, storage: choice(), reporter: quiet() });
    expect(next.plan.filter((i) => i.state !== 'unchanged')).toMatchObject([{ name: 'articles/en_US/alpha.md', state: 'changed' }]);
  });

  it('deploy --delete refuses to remove more than --max-delete of the bucket without --yes, before writing anything', async () => {
    const site = await bucket('felt-site');
    for (const page of ['a', 'b', 'c', 'd', 'e', 'f'])
      await site.write(`${page}/index.html`, Buffer.from(`<title>${page}</title>`), { contentType: 'text/html' });
    const dist = path.join(fixture.root, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(dist, 'a.html'), '<!doctype html><title>A</title>');

    expect(await felt('deploy', '--bucket', 'felt-site', '--dist', dist, '--delete')).toBe(EXIT.failed);
    expect(lines()).toContain(
      `felt: --delete would remove 6 of the 6 objects in ${site.location} (100%), more than --max-delete 25%. check --dist and the bucket, then rerun with --yes, or raise --max-delete`,
    );
    expect((await site.list('')).map((o) => o.name)).toHaveLength(6);
    expect(await site.stat('index.html')).toBeUndefined();

    expect(await felt('deploy', '--bucket', 'felt-site', '--dist', dist, '--delete', '--max-delete', '100')).toBe(EXIT.ok);
    expect((await site.list('')).map((o) => o.name)).toEqual(['a.html', 'index.html']);
  });

  it('deploy refuses the article buckets (storage.prefix and its -dev), before it uploads anything', async () => {
    const dist = path.join(fixture.root, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    for (const [name, which] of [
      ['felt-test', 'production'],
      ['felt-test-dev', 'dev'],
    ] as const) {
      const articles = await bucket(name);
      await put(articles, 'articles/en_US/alpha.md', article('alpha', 'Alpha'));
      printed = [];
      expect(await felt('deploy', '--bucket', name, '--dist', dist), name).toBe(EXIT.failed);
      expect(lines().filter((line) => line.startsWith('felt:'))).toEqual([
        `felt: --bucket ${name} is the ${which} article bucket (storage.prefix in site.json). deploy the site to its own hosting bucket, like www-feltmagazine`,
      ]);
      expect((await articles.list('')).map((o) => o.name)).toEqual(['articles/en_US/alpha.md']);
    }
  });

  it('pull --delete refuses to remove every local article when the bucket lists none, without --yes, before it deletes anything', async () => {
    // A production bucket that answers with no articles (empty, the wrong one, a proxy's page read as no objects).
    const prod = await bucket('felt-test');
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    await mkdir(folder, { recursive: true });
    for (const slug of ['alpha', 'beta', 'gamma', 'delta']) await writeFile(path.join(folder, `${slug}.md`), article(slug, slug));
    const local = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort();
    expect(await names(prod)).toEqual([]);
    const refusal = `--delete would remove every local article (4 in `;

    expect(await felt('pull', '--locale', 'en_US', '--delete', '--dry-run')).toBe(EXIT.ok);
    expect(lines().filter((line) => line.includes(refusal))).toEqual([expect.stringMatching(/^warning: .*: \S+ lists none; a real run needs --yes$/)]);
    printed = [];
    expect(await felt('pull', '--locale', 'en_US', '--delete')).toBe(EXIT.failed);
    expect(lines().filter((line) => line.startsWith('felt:'))).toEqual([
      `felt: ${refusal}${displayPath(folder)}): ${prod.location} lists none. check the bucket and --env, then rerun with --yes if it really holds no articles`,
    ]);
    expect((await readdir(folder)).filter((name) => name.endsWith('.md')).sort()).toEqual(local);

    // One article listed: the others go, as --delete always did.
    await put(prod, 'articles/en_US/alpha.md', article('alpha', 'alpha'));
    expect(await felt('pull', '--locale', 'en_US', '--delete')).toBe(EXIT.ok);
    expect((await readdir(folder)).filter((name) => name.endsWith('.md'))).toEqual(['alpha.md']);
    await prod.delete('articles/en_US/alpha.md');
    expect(await felt('pull', '--locale', 'en_US', '--delete', '--yes')).toBe(EXIT.ok);
    expect((await readdir(folder)).filter((name) => name.endsWith('.md'))).toEqual([]);
  });
});

describe('gcs: deploy retries and reports', () => {
  const flags = () => ['--storage', 'gcs', '--storage-endpoint', gcs.url];
  const felt = (...args: string[]) => {
    // main answers process.exitCode when a command set it (exit 2): each run starts without one, as a new process would.
    process.exitCode = undefined;
    return main(['node', 'felt', ...args, ...flags(), '--content', fixture.contentDir]);
  };

  it('retries an upload answered 503, no sooner than Retry-After, and counts only what really went up', async () => {
    const dist = path.join(fixture.root, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(dist, 'assets', 'app-4F2K9QZ1.js'), 'console.log(1)');
    await writeFile(path.join(dist, 'robots.txt'), 'User-agent: *');
    gcs.faults.push({ kind: 'object.upload', name: 'index.html', status: 503, times: 2, headers: { 'retry-after': '1' } });
    // Down for good: every try fails.
    gcs.faults.push({ kind: 'object.upload', name: 'robots.txt', status: 503, times: 100 });
    expect(await felt('deploy', '--bucket', 'felt-site', '--dist', dist)).toBe(EXIT.failed);
    const uploads = gcs.log.filter((r) => r.kind === 'object.upload');
    const index = uploads.filter((r) => r.query.name === 'index.html');
    expect(index).toHaveLength(3);
    // Retry-After: 1 is honoured before each retry.
    expect(index[1]!.at - index[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(index[2]!.at - index[1]!.at).toBeGreaterThanOrEqual(1000);
    expect(uploads.filter((r) => r.query.name === 'robots.txt')).toHaveLength(5);
    expect(gcs.buckets.get('felt-site')!.has('index.html')).toBe(true);
    expect(gcs.buckets.get('felt-site')!.has('robots.txt')).toBe(false);
    const out = printed.join('');
    expect(out).toMatch(/retrying index\.html in 1\.\d s after .*503/);
    expect(out).toContain('deployed 2 uploaded, 0 patched, 0 deleted, 0 unchanged');
    expect(out).toMatch(/failed: robots\.txt: .*503/);
  }, 30_000);
});

describe('local backend: what a killed publish or deploy leaves', () => {
  const felt = (...args: string[]) => {
    process.exitCode = undefined;
    return main(['node', 'felt', ...args, '--storage', 'local', '--content', fixture.contentDir]);
  };
  // A process id no machine runs (above the kernel's maximum), as a writer killed mid-write leaves its temporary.
  const leftover = (name: string) => `.felt-tmp-99999999-0a1b2c3d4e5f-${name}.tmp`;
  const temporaries = async (folder: string) => (await readdir(folder)).filter((name) => name.startsWith('.felt-tmp-'));

  it('is removed by the next publish and the next deploy, each with a line', async () => {
    const dev = openStorage(await loadProject(fixture.contentDir), { storage: 'local' }).bucket('felt-test-dev');
    await dev.create();
    await dev.write('articles/en_US/alpha.md', Buffer.from(articleSource('alpha', 'Alpha')), { contentType: MD });
    expect(await felt('publish', '--all', '--yes')).toBe(EXIT.ok);
    const prodFolder = path.join(fixture.root, '.buckets', 'felt-test', 'articles', 'en_US');
    await writeFile(path.join(prodFolder, leftover('beta.md')), 'half an article');
    await dev.write('articles/en_US/beta.md', Buffer.from(articleSource('beta', 'Beta')), { contentType: MD });
    printed = [];
    expect(await felt('publish', '--all', '--yes')).toBe(EXIT.ok);
    expect(await temporaries(prodFolder)).toEqual([]);
    expect(lines()).toContainEqual(
      expect.stringMatching(/^removed articles\/en_US\/\.felt-tmp-99999999-0a1b2c3d4e5f-beta\.md\.tmp in \S+felt-test, left by a killed run$/),
    );

    const dist = path.join(fixture.root, 'dist');
    await mkdir(path.join(dist, 'articles', 'alpha'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(dist, 'articles', 'alpha', 'index.html'), '<!doctype html><title>Alpha</title>');
    printed = [];
    expect(await felt('deploy', '--bucket', 'felt-site', '--dist', dist)).toBe(EXIT.ok);
    const hosted = path.join(fixture.root, '.buckets', 'felt-site', 'articles', 'alpha');
    await writeFile(path.join(hosted, leftover('index.html')), '<!doctype html><title>Al');
    await writeFile(path.join(dist, 'articles', 'alpha', 'index.html'), '<!doctype html><title>Alpha, again</title>');
    printed = [];
    expect(await felt('deploy', '--bucket', 'felt-site', '--dist', dist)).toBe(EXIT.ok);
    expect(await temporaries(hosted)).toEqual([]);
    expect(lines()).toContainEqual(
      expect.stringMatching(/^removed articles\/alpha\/\.felt-tmp-99999999-0a1b2c3d4e5f-index\.html\.tmp in \S+felt-site, left by a killed run$/),
    );
    expect(await readFile(path.join(hosted, 'index.html'), 'utf8')).toBe('<!doctype html><title>Alpha, again</title>');
  });
});

describe('gcs: a listing cut short', () => {
  const felt = (...args: string[]) => {
    process.exitCode = undefined;
    return main(['node', 'felt', ...args, '--storage', 'gcs', '--storage-endpoint', gcs.url, '--content', fixture.contentDir]);
  };

  it("pull --delete and publish --delete stop when a listing's next page is a proxy's HTML, and delete nothing", async () => {
    // 1,001 articles: a listing of two pages (1,000 a page). A page answered 200 with HTML has no items and no next
    // page, which read as the listing's end: the one article on the second page was deleted everywhere.
    const slugs = Array.from({ length: 1001 }, (_, i) => `article-${String(i).padStart(4, '0')}`);
    for (const bucket of ['felt-test-dev', 'felt-test']) {
      gcs.put(bucket, '.keep', '');
      for (const slug of slugs) gcs.put(bucket, `articles/en_US/${slug}.md`, articleSource(slug, `Title ${slug}`), { contentType: MD });
    }
    expect(await felt('pull', '--locale', 'en_US')).toBe(EXIT.ok);
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    const pulled = (await readdir(folder)).filter((name) => name.endsWith('.md'));
    expect(pulled).toHaveLength(slugs.length);

    const proxyPage = '<html><body>Proxy: your session has expired</body></html>';
    for (const command of [
      ['pull', '--locale', 'en_US', '--delete'],
      ['publish', '--all', '--yes', '--delete'],
    ]) {
      printed = [];
      gcs.faults.push({ kind: 'object.list', status: 200, times: 1, body: proxyPage, withQuery: 'pageToken' });
      expect(await felt(...command), command.join(' ')).toBe(EXIT.failed);
      expect(lines().filter((line) => line.startsWith('felt:'))).toEqual([
        expect.stringMatching(
          /^felt: gs:\/\/felt-test(-dev)?: a page of the listing of "articles\/en_US\/" is not a storage answer \(got "<html><body>Proxy: your session has expired.*"\); nothing was changed\. a proxy or captive portal/,
        ),
      ]);
      expect(gcs.faults[0]!.times).toBe(0);
      gcs.faults.length = 0;
    }
    expect((await readdir(folder)).filter((name) => name.endsWith('.md'))).toHaveLength(slugs.length);
    expect([...gcs.buckets.get('felt-test')!.keys()].filter((name) => name.startsWith('articles/'))).toHaveLength(slugs.length);
    expect(gcs.log.filter((r) => r.kind === 'object.delete')).toEqual([]);
  }, 60_000);
});

describe('gcs: publish in link order (issue 14)', () => {
  it('uploads new articles, then changed ones, and deletes only after every upload', async () => {
    const choice: StorageChoice = { storage: 'gcs', apiEndpoint: gcs.url };
    const storage = openStorage(await loadProject(fixture.contentDir), choice);
    const dev = storage.bucket('felt-test-dev');
    await dev.create();
    const write = (slug: string, title: string) => dev.write(`articles/en_US/${slug}.md`, Buffer.from(articleSource(slug, title)), { contentType: MD });
    // Changed articles sort before the new ones, so an order by name would be the wrong one.
    for (const slug of ['aa-changed', 'ab-changed', 'zz-gone', 'zy-gone']) await write(slug, slug);
    await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice, reporter: quiet() });
    for (const slug of ['aa-changed', 'ab-changed']) await write(slug, `${slug}, revised`);
    for (const slug of ['zz-gone', 'zy-gone']) await dev.delete(`articles/en_US/${slug}.md`);
    for (let i = 0; i < 12; i++) await write(`zz-new-${i}`, `New ${i}`);

    gcs.resetLog();
    const result = await publish({ contentDir: fixture.contentDir, all: true, yes: true, delete: true, storage: choice, reporter: quiet() });
    expect(result.failed).toEqual([]);
    expect(result.deleted.sort()).toEqual(['articles/en_US/zy-gone.md', 'articles/en_US/zz-gone.md']);
    const objectOf = (r: (typeof gcs.log)[number]) => r.query.name ?? decodeURIComponent(r.path.split('/o/')[1] ?? '');
    const writes = gcs.log
      .map((r, at) => ({ at, kind: r.kind, name: objectOf(r) }))
      .filter((r) => ['object.upload', 'object.rewrite', 'object.delete'].includes(r.kind) && r.name.startsWith('articles/'));
    const at = (test: (r: (typeof writes)[number]) => boolean) => writes.filter(test).map((r) => r.at);
    const news = at((r) => r.kind !== 'object.delete' && r.name.includes('zz-new-'));
    const changed = at((r) => r.kind !== 'object.delete' && r.name.includes('-changed'));
    const deletes = at((r) => r.kind === 'object.delete');
    expect([news.length, changed.length, deletes.length]).toEqual([12, 2, 2]);
    expect(Math.max(...news)).toBeLessThan(Math.min(...changed));
    expect(Math.max(...news, ...changed)).toBeLessThan(Math.min(...deletes));
    expect([...gcs.buckets.get('felt-test')!.keys()].filter((n) => n.includes('gone'))).toEqual([]);
  });
});
