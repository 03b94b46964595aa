/**
 * publish, pull and deploy on both backends: the local folder bucket and the
 * real GCS client against the fake server (whose log shows that nothing is
 * transferred when nothing changed).
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deploy } from '../../cli/deploy.ts';
import { IMMUTABLE, REVALIDATE } from '../../shared/cacheRules.ts';
import { loadProject } from '../../cli/project.ts';
import { publish } from '../../cli/publish.ts';
import { pull } from '../../cli/pull.ts';
import { readPublishRecord, updatePublishRecord } from '../../cli/publishRecord.ts';
import { TEMP_MARK } from '../../shared/atomicWrite.ts';
import { createReporter } from '../../cli/report.ts';
import { openStorage, type StorageChoice } from '../../cli/storage/index.ts';
import type { Bucket } from '../../cli/storage/types.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { articleSource, captureStreams, makeFixture, type Fixture } from '../support/fixtureSite.ts';
import { LIMITS } from '../../shared/limits.ts';

let gcs: FakeGcs;
let fixture: Fixture;
beforeAll(async () => void (gcs = await startFakeGcs()));
afterAll(() => gcs.close());
beforeEach(async () => {
  fixture = await makeFixture();
  gcs.buckets.clear();
  gcs.websites.clear();
  gcs.forbidden.clear();
});
afterEach(() => fixture.cleanup());

const quiet = () => {
  const streams = captureStreams();
  return { reporter: createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false }), streams };
};

describe.each(['local', 'gcs'] as const)('%s backend', (kind) => {
  const choice = (): StorageChoice => (kind === 'gcs' ? { storage: 'gcs', apiEndpoint: gcs.url } : { storage: 'local' });
  const bucket = async (name: string): Promise<Bucket> => {
    const b = openStorage(await loadProject(fixture.contentDir), choice()).bucket(name);
    if (!(await b.exists())) await b.create();
    return b;
  };
  const put = async (b: Bucket, slug: string, title: string, locale = 'en_US') =>
    b.write(`articles/${locale}/${slug}.md`, Buffer.from(articleSource(slug, title, locale)), { contentType: 'text/markdown; charset=utf-8' });
  // Reading publish's own record (felt/publish-record.json) is not a transfer of content.
  const transfers = () =>
    gcs.log.filter(
      (r) =>
        ['object.upload', 'object.upload.start', 'object.download', 'object.rewrite', 'object.delete', 'object.patch'].includes(r.kind) &&
        !decodeURIComponent(r.path).includes('felt/publish-record.json'),
    ).length;

  it('publish shows the plan, needs --yes, copies only what changed, and respects generations', async () => {
    const dev = await bucket('felt-test-dev');
    await put(dev, 'alpha', 'Alpha');
    await put(dev, 'beta', 'Beta');
    const { reporter, streams } = quiet();
    await expect(publish({ contentDir: fixture.contentDir, all: true, storage: choice(), reporter })).rejects.toThrow(
      /production not written: 2 articles would change/,
    );
    expect(streams.out()).toMatch(/new\s+articles\/en_US\/alpha\.md/);
    const prod = openStorage(await loadProject(fixture.contentDir), choice()).bucket('felt-test');
    expect(await prod.exists()).toBe(false);
    await expect(
      publish({ contentDir: fixture.contentDir, all: true, storage: choice(), reporter: quiet().reporter, confirm: async () => false }),
    ).rejects.toThrow(/not confirmed/);

    const first = await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
    expect(first.copied).toEqual(['articles/en_US/alpha.md', 'articles/en_US/beta.md']);

    gcs.resetLog();
    const again = await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
    expect(again.copied).toEqual([]);
    expect(again.plan.every((i) => i.state === 'unchanged')).toBe(true);
    expect(transfers()).toBe(0);

    await put(dev, 'alpha', 'Alpha, revised');
    const dry = await publish({ contentDir: fixture.contentDir, slugs: ['alpha'], dryRun: true, storage: choice(), reporter: quiet().reporter });
    expect(dry.plan).toMatchObject([{ name: 'articles/en_US/alpha.md', state: 'changed' }]);
    expect(dry.written).toBe(false);
    const raced = await publish({ contentDir: fixture.contentDir, slugs: ['alpha'], yes: true, storage: choice(), reporter: quiet().reporter });
    expect(raced.copied).toEqual(['articles/en_US/alpha.md']);
    await expect(publish({ contentDir: fixture.contentDir, slugs: ['nope'], yes: true, storage: choice(), reporter: quiet().reporter })).rejects.toThrow(
      /not in .*: nope/,
    );
  });

  it('publish refuses to overwrite a production object changed after the plan', async () => {
    const dev = await bucket('felt-test-dev');
    const prod = await bucket('felt-test');
    await put(dev, 'gamma', 'Gamma new');
    await put(prod, 'gamma', 'Gamma old');
    const { reporter } = quiet();
    const result = await publish({
      contentDir: fixture.contentDir,
      all: true,
      storage: choice(),
      reporter,
      // The confirmation is where time passes: someone writes production meanwhile.
      confirm: async () => {
        await put(prod, 'gamma', 'Gamma edited by hand');
        return true;
      },
    });
    expect(result.failed).toMatchObject([{ name: 'articles/en_US/gamma.md', reason: /changed in production since the plan/ }]);
    expect((await prod.read('articles/en_US/gamma.md', { maxBytes: LIMITS.articleBytes })).toString()).toContain('Gamma edited by hand');
  });

  it('pull downloads only what differs, writes valid files, and deletes only with --delete', async () => {
    const prod = await bucket('felt-test');
    await put(prod, 'one', 'One');
    await put(prod, 'two', 'Two');
    await put(prod, 'drei', 'Drei', 'ru_RU');
    await prod.write('articles/en_US/broken.md', Buffer.from('---\ntitle: [\n---\n'), { contentType: 'text/markdown' });
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    await writeFile(path.join(folder, 'local-only.md'), articleSource('local-only', 'Local only'));
    await writeFile(path.join(folder, 'broken.md'), articleSource('broken', 'Broken but fine locally'));

    const first = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(first.download.sort()).toEqual(['articles/en_US/one.md', 'articles/en_US/two.md', 'articles/ru_RU/drei.md']);
    expect(first.skipped).toMatchObject([{ name: 'articles/en_US/broken.md', reason: /invalid article/ }]);
    expect(await readFile(path.join(folder, 'broken.md'), 'utf8')).toContain('Broken but fine locally');
    expect(first.extra).toEqual([path.join(folder, 'local-only.md')]);
    expect((await readdir(folder)).sort()).toEqual(['broken.md', 'local-only.md', 'one.md', 'two.md']);

    await prod.delete('articles/en_US/broken.md');
    gcs.resetLog();
    const second = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(second.download).toEqual([]);
    expect(second.unchanged).toBe(3);
    expect(transfers()).toBe(0);
    expect((await readdir(folder)).sort()).toContain('local-only.md');

    await put(prod, 'two', 'Two, updated');
    const dry = await pull({ contentDir: fixture.contentDir, delete: true, dryRun: true, storage: choice(), reporter: quiet().reporter });
    expect(dry.download).toEqual(['articles/en_US/two.md']);
    expect(await readFile(path.join(folder, 'two.md'), 'utf8')).not.toContain('updated');
    const third = await pull({ contentDir: fixture.contentDir, locales: ['en_US'], delete: true, storage: choice(), reporter: quiet().reporter });
    expect(third.download).toEqual(['articles/en_US/two.md']);
    expect(await readFile(path.join(folder, 'two.md'), 'utf8')).toContain('Two, updated');
    expect((await readdir(folder)).sort()).toEqual(['one.md', 'two.md']);
  });

  it('pull refuses a folder named like an article in content/ with one felt error naming it, and writes nothing', async () => {
    const prod = await bucket('felt-test');
    await put(prod, 'one', 'One');
    await put(prod, 'two', 'Two');
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    await mkdir(path.join(folder, 'two.md'));
    const failure = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'BAD_PATH', location: { file: path.join(folder, 'two.md') } });
    expect(String((failure as Error).message)).toMatch(/found a folder or other non-file where a \.md file should be/);
    expect(existsSync(path.join(folder, 'one.md'))).toBe(false);
  });

  it('pull remembers the checksums of the files it writes at once: a pull right after it reads none of them', async () => {
    const prod = await bucket('felt-test');
    for (const slug of ['one', 'two', 'three']) await put(prod, slug, slug);
    const first = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(first.download).toHaveLength(3);
    const second = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(second.unchanged).toBe(3);
    expect(second.hashedLocally).toBe(0);
    // A later edit still shows: the pulled file is dated before the racy window, the edit now. It is kept (below).
    const file = path.join(fixture.contentDir, 'articles', 'en_US', 'one.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('one', 'eno'));
    const third = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(third.download).toEqual([]);
    expect(third.skipped).toMatchObject([{ name: 'articles/en_US/one.md', reason: /^changed here since the last pull/ }]);
    expect(await readFile(file, 'utf8')).toContain('eno');
  });

  it("pull keeps an article changed here since the last pull (a hand or felt dev's title editor), says so, and replaces it only with --force", async () => {
    const prod = await bucket('felt-test');
    for (const slug of ['one', 'two', 'gone']) await put(prod, slug, slug);
    await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    const edit = async (slug: string) => {
      const file = path.join(folder, `${slug}.md`);
      await writeFile(file, (await readFile(file, 'utf8')).replace(`title: ${JSON.stringify(slug)}`, 'title: "Edited here"'));
      expect(await readFile(file, 'utf8')).toContain('Edited here');
    };
    await edit('one');
    await edit('gone');
    // Production changes both edited articles (one updated, one deleted) and an untouched one.
    await put(prod, 'one', 'One, updated in production');
    await put(prod, 'two', 'Two, updated in production');
    await prod.delete('articles/en_US/gone.md');

    const { reporter, streams } = quiet();
    const kept = await pull({ contentDir: fixture.contentDir, delete: true, storage: choice(), reporter });
    expect(kept.download).toEqual(['articles/en_US/two.md']);
    expect(kept.remove).toEqual([]);
    expect(kept.skipped.map((s) => s.name).sort()).toEqual(['articles/en_US/one.md', path.join(fixture.contentDir, 'articles', 'en_US', 'gone.md')].sort());
    expect(streams.text()).toMatch(/plan: 1 to download, 0 unchanged, 0 to delete, 2 changed here \(kept; --force replaces them\)/);
    for (const slug of ['one', 'gone']) expect(await readFile(path.join(folder, `${slug}.md`), 'utf8'), slug).toContain('Edited here');
    expect(await readFile(path.join(folder, 'two.md'), 'utf8')).toContain('Two, updated in production');
    // Still kept the night after: the record is of the bucket's copy the file last matched, not of the last pull.
    const again = await pull({ contentDir: fixture.contentDir, delete: true, storage: choice(), reporter: quiet().reporter });
    expect(again.skipped).toHaveLength(2);
    expect(await readFile(path.join(folder, 'one.md'), 'utf8')).toContain('Edited here');

    const forced = await pull({ contentDir: fixture.contentDir, delete: true, force: true, storage: choice(), reporter: quiet().reporter });
    expect(forced.download).toEqual(['articles/en_US/one.md']);
    expect(forced.remove).toEqual([path.join(folder, 'gone.md')]);
    expect(forced.skipped).toEqual([]);
    expect(await readFile(path.join(folder, 'one.md'), 'utf8')).toContain('One, updated in production');
    expect((await readdir(folder)).sort()).toEqual(['one.md', 'two.md']);
  });

  it('pull takes the bucket copy over a file put back to an older copy it pulled (git checkout -- content/): not an edit', async () => {
    const prod = await bucket('felt-test');
    const file = path.join(fixture.contentDir, 'articles', 'en_US', 'one.md');
    await put(prod, 'one', 'One, first');
    await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    const first = await readFile(file);
    await put(prod, 'one', 'One, second');
    await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    await writeFile(file, first);
    await put(prod, 'one', 'One, third');
    const third = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(third.skipped).toEqual([]);
    expect(third.download).toEqual(['articles/en_US/one.md']);
    expect(await readFile(file, 'utf8')).toContain('One, third');
  });

  it('pull removes the temporary files a killed pull left, and none a live writer is using (issue 16)', async () => {
    const prod = await bucket('felt-test');
    await put(prod, 'one', 'One');
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    // A process that has ended: its temporary files can only be leftovers.
    const ended = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => ended.on('exit', resolve));
    const leftovers = {
      dead: `${TEMP_MARK}${ended.pid}-0a1b2c3d4e5f-one.md.tmp`,
      old: `${TEMP_MARK}${process.pid}-0a1b2c3d4e5f-two.md.tmp`,
      live: `${TEMP_MARK}${process.pid}-abcdefabcdef-three.md.tmp`,
    };
    for (const name of Object.values(leftovers)) await writeFile(path.join(folder, name), '---\ntitle: half');
    // Written an hour ago by a process id that runs now (ids are reused): a leftover all the same.
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(path.join(folder, leftovers.old), hourAgo, hourAgo);

    const { reporter, streams } = quiet();
    await pull({ contentDir: fixture.contentDir, storage: choice(), reporter });
    expect((await readdir(folder)).filter((name) => name.startsWith(TEMP_MARK))).toEqual([leftovers.live]);
    expect(streams.out()).toContain(`removed ${path.join(folder, leftovers.dead)}, left by an interrupted write`);
    expect(await readFile(path.join(folder, 'one.md'), 'utf8')).toContain('title: "One"');
  });

  it('deploy uploads changed files with the right headers and removes stale ones only with --delete', async () => {
    const dist = path.join(fixture.root, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await mkdir(path.join(dist, 'articles', 'x'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(dist, 'articles', 'x', 'index.html'), '<!doctype html><title>X</title>');
    await writeFile(path.join(dist, 'assets', 'main-4F2K9QZ1.js'), 'console.log(1)');
    await writeFile(path.join(dist, 'assets', 'big-7A7A7A7A.css'), 'a{}'.repeat(100_000));
    // Incompressible, so it stays over resumableAbove and goes up resumable.
    await writeFile(path.join(dist, 'assets', 'photo-5B5B5B5B.png'), randomBytes(150_000));
    const run = (extra: Partial<Parameters<typeof deploy>[0]> = {}) =>
      deploy({
        contentDir: fixture.contentDir,
        distDir: dist,
        bucket: 'felt-site',
        storage: choice(),
        reporter: quiet().reporter,
        resumableAbove: 100_000,
        ...extra,
      });

    const first = await run();
    expect(first.upload).toHaveLength(5);
    const site = openStorage(await loadProject(fixture.contentDir), choice()).bucket('felt-site');
    const index = await site.stat('index.html');
    expect(index).toMatchObject({ contentType: 'text/html; charset=utf-8', cacheControl: REVALIDATE });
    expect(await site.stat('assets/main-4F2K9QZ1.js')).toMatchObject({ contentType: 'text/javascript; charset=utf-8', cacheControl: IMMUTABLE });
    if (kind === 'gcs') expect(gcs.log.some((r) => r.kind === 'object.upload.start')).toBe(true);

    gcs.resetLog();
    const again = await run();
    expect(again.upload).toEqual([]);
    expect(again.unchanged).toBe(5);
    expect(transfers()).toBe(0);

    await site.patch('index.html', { cacheControl: 'public, max-age=86400' });
    await writeFile(path.join(dist, 'articles', 'x', 'index.html'), '<!doctype html><title>X2</title>');
    await site.write('old-page/index.html', Buffer.from('old'), { contentType: 'text/html' });
    const third = await run();
    expect(third).toMatchObject({ upload: ['articles/x/index.html'], patch: ['index.html'], stale: ['old-page/index.html'], remove: [] });
    expect(await site.stat('old-page/index.html')).toBeDefined();
    const fourth = await run({ delete: true });
    expect(fourth.remove).toEqual(['old-page/index.html']);
    expect(await site.stat('old-page/index.html')).toBeUndefined();
    await expect(run({ distDir: path.join(fixture.root, 'nothing') })).rejects.toThrow(/is missing or empty/);
  });

  it('deploy says so when --bucket names a bucket that does not exist yet (a typo is a new bucket), in the plan and the run', async () => {
    const dist = path.join(fixture.root, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    const run = async (dryRun: boolean) => {
      const { reporter, streams } = quiet();
      await deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: 'felt-sight', dryRun, storage: choice(), reporter });
      return streams.err();
    };
    const location = kind === 'gcs' ? 'gs://felt-sight' : path.join(fixture.root, '.buckets', 'felt-sight');
    expect(await run(true)).toContain(`note: ${location} does not exist; a real deploy creates it (if you meant an existing bucket, check --bucket)`);
    expect(await run(false)).toContain(`note: ${location} does not exist; creating it`);
    expect(await run(false)).not.toContain('does not exist');
  });

  it('deploy reads only the files of a release that changed: hard links to the last release are answered by the checksum cache', async () => {
    // dist is a link a build flips to its new release; unchanged files of the new release are hard links to the old ones.
    const releases = path.join(fixture.root, 'dist.releases');
    const first = path.join(releases, 'r1');
    await mkdir(path.join(first, 'articles', 'x'), { recursive: true });
    const pages = { 'index.html': '<!doctype html><title>Home</title>', 'articles/x/index.html': '<!doctype html><title>X</title>', 'feed.xml': '<rss></rss>' };
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const [name, text] of Object.entries(pages)) {
      await writeFile(path.join(first, name), text);
      await utimes(path.join(first, name), hourAgo, hourAgo);
    }
    const dist = path.join(fixture.root, 'dist');
    await symlink(first, dist);
    const run = () => deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: 'felt-site', storage: choice(), reporter: quiet().reporter });

    expect(await run()).toMatchObject({ hashedLocally: 3, upload: Object.keys(pages).sort() });
    gcs.resetLog();
    const again = await run();
    expect(again).toMatchObject({ hashedLocally: 0, upload: [], unchanged: 3 });
    expect(transfers()).toBe(0);

    // The next release: two hard links and one page written again (a new file, a new inode).
    const second = path.join(releases, 'r2');
    await mkdir(path.join(second, 'articles', 'x'), { recursive: true });
    await link(path.join(first, 'index.html'), path.join(second, 'index.html'));
    await link(path.join(first, 'feed.xml'), path.join(second, 'feed.xml'));
    await writeFile(path.join(second, 'articles', 'x', 'index.html'), '<!doctype html><title>Y</title>');
    await utimes(path.join(second, 'articles', 'x', 'index.html'), hourAgo, hourAgo);
    await rm(dist);
    await symlink(second, dist);
    expect(await run()).toMatchObject({ hashedLocally: 1, upload: ['articles/x/index.html'], unchanged: 2 });

    // Rewritten in place within the racy window: same size, same inode, mtime put back. The cache never
    // remembered a file this fresh, so it is read again and uploaded.
    const racy = path.join(second, 'feed.xml');
    await writeFile(racy, '<rss>1</rss>');
    const justNow = new Date();
    await utimes(racy, justNow, justNow);
    expect(await run()).toMatchObject({ hashedLocally: 1, upload: ['feed.xml'] });
    await writeFile(racy, '<rss>2</rss>');
    await utimes(racy, justNow, justNow);
    expect(await run()).toMatchObject({ hashedLocally: 1, upload: ['feed.xml'] });
    expect(
      (
        await openStorage(await loadProject(fixture.contentDir), choice())
          .bucket('felt-site')
          .read('feed.xml', { maxBytes: 1024 * 1024 })
      ).toString(),
    ).toBe('<rss>2</rss>');

    // A build makes its release from the one before last: after a full rebuild (r3 writes index.html anew, same bytes)
    // the next release (r4) has r2's file again. Both inodes are remembered, so neither is read twice.
    await utimes(racy, hourAgo, hourAgo);
    expect(await run()).toMatchObject({ hashedLocally: 1, upload: [] });
    const releaseOf = async (name: string, from: Record<string, string>, fresh: string[]) => {
      const dir = path.join(releases, name);
      await mkdir(path.join(dir, 'articles', 'x'), { recursive: true });
      for (const page of Object.keys(pages))
        if (fresh.includes(page)) {
          await writeFile(path.join(dir, page), await readFile(path.join(from[page]!, page)));
          await utimes(path.join(dir, page), hourAgo, hourAgo);
        } else await link(path.join(from[page]!, page), path.join(dir, page));
      await rm(dist);
      await symlink(dir, dist);
    };
    const all = (dir: string) => Object.fromEntries(Object.keys(pages).map((page) => [page, dir]));
    await releaseOf('r3', all(second), ['index.html']);
    expect(await run()).toMatchObject({ hashedLocally: 1, upload: [] });
    await releaseOf('r4', { ...all(path.join(releases, 'r3')), 'index.html': second }, []);
    expect(await run()).toMatchObject({ hashedLocally: 0, upload: [] });
  });

  it(
    kind === 'gcs'
      ? 'deploy stores text files gzip-encoded, a reader gets them back as they were, and --no-gzip stores them as they are'
      : 'deploy to a folder bucket stores files as they are',
    async () => {
      const dist = path.join(fixture.root, 'dist');
      await mkdir(path.join(dist, 'assets'), { recursive: true });
      const page = `<!doctype html><html lang="en"><title>Home</title>${'<p>Bankroll management, one unit at a time.</p>'.repeat(200)}</html>`;
      await writeFile(path.join(dist, 'index.html'), page);
      await writeFile(path.join(dist, 'assets', 'app-4F2K9QZ1.js'), `export const x = ${JSON.stringify('odds '.repeat(2000))};`);
      await writeFile(path.join(dist, 'tiny.txt'), 'ok'); // under 512 bytes: not worth compressing
      await writeFile(path.join(dist, 'logo-5B5B5B5B.png'), randomBytes(4000));
      const run = (extra: Partial<Parameters<typeof deploy>[0]> = {}) =>
        deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: 'felt-site', storage: choice(), reporter: quiet().reporter, ...extra });
      const site = openStorage(await loadProject(fixture.contentDir), choice()).bucket('felt-site');

      const first = await run();
      expect(first.upload).toHaveLength(4);
      const index = (await site.stat('index.html'))!;
      if (kind === 'local') {
        expect(first.gzipped).toEqual([]);
        expect(index.contentEncoding).toBeUndefined();
        expect((await site.read('index.html', { maxBytes: 1024 * 1024 })).toString()).toBe(page);
        return;
      }
      expect(first.gzipped).toEqual(['assets/app-4F2K9QZ1.js', 'index.html']);
      expect(index).toMatchObject({ contentType: 'text/html; charset=utf-8', contentEncoding: 'gzip', cacheControl: REVALIDATE });
      const stored = gcs.buckets.get('felt-site')!.get('index.html')!.data;
      expect(stored.length).toBeLessThan(page.length / 10);
      expect(gunzipSync(stored).toString()).toBe(page);
      expect((await site.stat('tiny.txt'))!.contentEncoding).toBeUndefined();
      expect((await site.stat('logo-5B5B5B5B.png'))!.contentEncoding).toBeUndefined();
      // The real client (as any reader) gets the page back as it was.
      expect((await site.read('index.html', { maxBytes: 1024 * 1024 })).toString()).toBe(page);
      // A browser: compressed bytes with Content-Encoding: gzip, and fetch decodes them.
      const response = await fetch(`${gcs.url}/storage/v1/b/felt-site/o/index.html?alt=media`, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(await response.text()).toBe(page);

      // Unchanged sources are not uploaded again, whatever the compressor would make of them.
      gcs.resetLog();
      const again = await run();
      expect(again).toMatchObject({ upload: [], unchanged: 4 });
      expect(transfers()).toBe(0);

      // A changed page goes up compressed again; --no-gzip replaces the compressed objects.
      await writeFile(path.join(dist, 'index.html'), page.replace('Home', 'Front page'));
      expect(await run()).toMatchObject({ upload: ['index.html'], gzipped: ['index.html'] });
      const plain = await run({ gzip: false });
      expect(plain).toMatchObject({ upload: ['assets/app-4F2K9QZ1.js', 'index.html'], gzipped: [] });
      expect((await site.stat('index.html'))!.contentEncoding).toBeUndefined();
      expect(gcs.buckets.get('felt-site')!.get('index.html')!.data.toString()).toBe(page.replace('Home', 'Front page'));
    },
  );

  it("deploy gives the operator's own files (a PDF, fonts) and feeds their content types, and gzips only the text", async () => {
    const dist = path.join(fixture.root, 'dist');
    await mkdir(path.join(dist, 'fonts'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(dist, 'rules.pdf'), Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2000)]));
    await writeFile(path.join(dist, 'fonts', 'brand.woff2'), randomBytes(2000));
    await writeFile(path.join(dist, 'fonts', 'brand.woff'), randomBytes(2000));
    await writeFile(
      path.join(dist, 'sitemap.xml'),
      `<?xml version="1.0" encoding="UTF-8"?><urlset>${'<url><loc>https://example.com/a</loc></url>'.repeat(50)}</urlset>`,
    );
    await writeFile(path.join(dist, 'feed.atom'), `<?xml version="1.0" encoding="UTF-8"?><feed>${'<entry><title>Odds</title></entry>'.repeat(50)}</feed>`);
    const result = await deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: 'felt-site', storage: choice(), reporter: quiet().reporter });
    expect(result.failed).toEqual([]);
    expect(result.gzipped).toEqual(kind === 'gcs' ? ['feed.atom', 'sitemap.xml'] : []);
    const site = openStorage(await loadProject(fixture.contentDir), choice()).bucket('felt-site');
    const expected: Record<string, string> = {
      'rules.pdf': 'application/pdf',
      'fonts/brand.woff2': 'font/woff2',
      'fonts/brand.woff': 'font/woff',
      'sitemap.xml': 'application/xml; charset=utf-8',
      'feed.atom': 'application/atom+xml',
    };
    for (const [name, type] of Object.entries(expected)) expect([name, (await site.stat(name))?.contentType]).toEqual([name, type]);
    if (kind === 'local') return;
    // What a browser gets from the bucket.
    for (const [name, type] of Object.entries(expected)) {
      const response = await fetch(`${gcs.url}/storage/v1/b/felt-site/o/${encodeURIComponent(name)}?alt=media`);
      expect([name, response.headers.get('content-type')]).toEqual([name, type]);
    }
  });

  it(
    kind === 'gcs'
      ? "deploy sets the bucket's website pages when they differ, and only warns when it may not"
      : 'deploy leaves a folder bucket without website pages',
    async () => {
      const dist = path.join(fixture.root, 'dist');
      await mkdir(dist, { recursive: true });
      await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home</title>');
      await writeFile(path.join(dist, '404.html'), '<!doctype html><title>Not found</title>');
      const run = (extra: Partial<Parameters<typeof deploy>[0]> = {}) => {
        const { reporter, streams } = quiet();
        return deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: 'felt-site', storage: choice(), reporter, ...extra }).then((result) => ({
          result,
          streams,
        }));
      };
      const first = await run();
      if (kind === 'local') {
        expect(first.result.website).toBeUndefined();
        return;
      }
      const pages = { mainPageSuffix: 'index.html', notFoundPage: '404.html' };
      expect(gcs.websites.get('felt-site')).toEqual(pages);
      expect(first.streams.out()).toContain('website pages: folders index.html, missing pages 404.html (now: none)');

      gcs.resetLog();
      expect((await run()).result.website).toBeUndefined();
      expect(gcs.count('bucket.patch')).toBe(0);

      // Someone changed them by hand: --no-website leaves them, a plain deploy puts them back.
      gcs.websites.set('felt-site', { mainPageSuffix: 'home.html' });
      await run({ website: false });
      expect(gcs.websites.get('felt-site')).toEqual({ mainPageSuffix: 'home.html' });
      await run();
      expect(gcs.websites.get('felt-site')).toEqual(pages);

      // An account that may upload objects but not change the bucket: the files go up, a warning says what to do.
      gcs.websites.delete('felt-site');
      gcs.forbidden.add('bucket.patch');
      await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Home, again</title>');
      const limited = await run();
      expect(limited.result.upload).toEqual(['index.html']);
      expect(limited.result.failed).toEqual([]);
      expect(limited.result.website?.error).toMatch(/storage\.buckets\.update/);
      expect(limited.streams.err()).toContain('gcloud storage buckets update gs://felt-site --web-main-page-suffix=index.html --web-error-page=404.html');
    },
  );
});

describe('publish and pull on the wire (gcs)', () => {
  const choice = (): StorageChoice => ({ storage: 'gcs', apiEndpoint: gcs.url });
  const put = (bucketName: string, slug: string, title: string) =>
    gcs.put(bucketName, `articles/en_US/${slug}.md`, articleSource(slug, title, 'en_US'), { contentType: 'text/markdown; charset=utf-8' });
  const recordReads = () => gcs.log.filter((r) => r.kind === 'object.download' && decodeURIComponent(r.path).endsWith('felt/publish-record.json')).length;
  const recordOf = async () => (await readPublishRecord(openStorage(await loadProject(fixture.contentDir), choice()).bucket('felt-test'))).objects;

  it('reads no more of an object than the limit whatever its listing says: one that lies is skipped, the others published and pulled', async () => {
    // A listing that said 100 bytes of a 600 MB object had publish download it whole and die ("Cannot create a string
    // longer than…", exit 70), nothing published; pull downloaded it and called it a failure. Here 3 MB is enough.
    const liar = Buffer.concat([Buffer.from(articleSource('liar', 'Liar', 'en_US')), Buffer.alloc(3 * 1024 * 1024, 'a')]);
    const lying = (bucketName: string) =>
      gcs.put(bucketName, 'articles/en_US/liar.md', liar, { contentType: 'text/markdown; charset=utf-8', declaredSize: 100 });
    put('felt-test-dev', 'good', 'Good');
    lying('felt-test-dev');
    const published = await publish({ contentDir: fixture.contentDir, slugs: ['good', 'liar'], yes: true, storage: choice(), reporter: quiet().reporter });
    expect(published.skipped).toEqual([
      { name: 'articles/en_US/liar.md', reason: expect.stringMatching(/^object larger than 1 MB, whatever its listing says/) },
    ]);
    expect(published.copied).toEqual(['articles/en_US/good.md']);
    // The same object in production, put there by another hand.
    lying('felt-test');
    const pulled = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
    expect(pulled.failed).toEqual([]);
    expect(pulled.skipped).toEqual([{ name: 'articles/en_US/liar.md', reason: expect.stringMatching(/^object larger than 1 MB, whatever its listing says/) }]);
    expect(pulled.download).toEqual(['articles/en_US/good.md']);
    expect(existsSync(path.join(fixture.contentDir, 'articles', 'en_US', 'liar.md'))).toBe(false);
  });

  it('reports an object replaced while it was read as changed, not as invalid or "not a PNG picture", in publish and pull alike', async () => {
    const png = (fill: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, fill)]);
    const picture = (bucketName: string, fill: number) => gcs.put(bucketName, 'images/en_US/alpha.png', png(fill), { contentType: 'image/png' });
    put('felt-test-dev', 'alpha', 'Alpha');
    picture('felt-test-dev', 1);
    put('felt-test-dev', 'beta', 'Beta');
    // Another writer replaces alpha's article and picture after the listing, as the command downloads them.
    const replacing = (bucketName: string) => (request: { path: string; query: Record<string, string> }) => {
      if (request.query.alt !== 'media') return;
      const name = decodeURIComponent(request.path);
      if (name.endsWith('/o/articles/en_US/alpha.md')) put(bucketName, 'alpha', 'Alpha, again');
      if (name.endsWith('/o/images/en_US/alpha.png')) picture(bucketName, 2);
    };
    gcs.beforeAnswer = replacing('felt-test-dev');
    try {
      const published = await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
      expect(published.copied).toEqual(['articles/en_US/beta.md']);
      expect(published.skipped).toEqual([
        { name: 'articles/en_US/alpha.md', reason: 'changed while it was read; run again' },
        { name: 'images/en_US/alpha.png', reason: 'changed while it was read; run again' },
      ]);
      put('felt-test', 'alpha', 'Alpha');
      picture('felt-test', 1);
      gcs.beforeAnswer = replacing('felt-test');
      const pulled = await pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter });
      // In pull a failure of this run only (exit 1: run it again), as before; never a bad object.
      expect(pulled.skipped).toEqual([]);
      expect(pulled.failed.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: 'articles/en_US/alpha.md', reason: 'changed while it was read; run again' },
        { name: 'images/en_US/alpha.png', reason: 'changed while it was read; run again' },
      ]);
    } finally {
      gcs.beforeAnswer = undefined;
    }
  });

  it('downloads the record once: the copy the plan read is written back under its generation (12 MB at 100,000 articles)', async () => {
    put('felt-test-dev', 'alpha', 'Alpha');
    await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
    put('felt-test-dev', 'beta', 'Beta');
    gcs.resetLog();
    const result = await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
    expect(result.copied).toEqual(['articles/en_US/beta.md']);
    expect(recordReads()).toBe(1);
    expect([...(await recordOf())!.keys()]).toEqual(['articles/en_US/alpha.md', 'articles/en_US/beta.md']);
  });

  it('reads the record again when another publish wrote it after the plan, and keeps that publish’s entries', async () => {
    put('felt-test-dev', 'alpha', 'Alpha');
    await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
    put('felt-test-dev', 'beta', 'Beta');
    gcs.resetLog();
    const prod = openStorage(await loadProject(fixture.contentDir), choice()).bucket('felt-test');
    const result = await publish({
      contentDir: fixture.contentDir,
      all: true,
      storage: choice(),
      reporter: quiet().reporter,
      // Another publish records an object while this one waits for its confirmation.
      confirm: async () => {
        await updatePublishRecord(prod, new Map([['articles/en_US/other.md', { generation: '7', md5: 'x' }]]));
        return true;
      },
    });
    expect(result.copied).toEqual(['articles/en_US/beta.md']);
    // The plan's read, and the one after the refused write (the other publish's test read is not this publish's).
    expect(recordReads()).toBe(3);
    expect([...(await recordOf())!.keys()]).toEqual(['articles/en_US/alpha.md', 'articles/en_US/beta.md', 'articles/en_US/other.md']);
  });
  /** How many listings (first pages) reach the server before the first is answered: it is held until `expected` have come, or 3 s. */
  const listingsAtOnce = async (expected: number, work: () => Promise<unknown>): Promise<number> => {
    let arrived = 0;
    let atRelease = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(() => release(), 3000);
    void released.then(() => (atRelease = arrived));
    gcs.beforeAnswer = async (request) => {
      if (request.method !== 'GET' || !request.path.endsWith('/o') || request.query.pageToken) return;
      if (++arrived >= expected) release();
      await released;
    };
    try {
      await work();
    } finally {
      gcs.beforeAnswer = undefined;
      clearTimeout(timer);
    }
    return atRelease;
  };

  it('deploy lists a large hosting bucket in name ranges at once, every object once (152 pages at 100,000 articles)', async () => {
    const dist = path.join(fixture.root, 'dist');
    const names = Array.from({ length: 10_500 }, (_, n) => `articles/a-${String(n).padStart(5, '0')}.html`);
    await mkdir(path.join(dist, 'articles'), { recursive: true });
    for (const name of names) {
      await writeFile(path.join(dist, name), name);
      // Already deployed as this release has it.
      gcs.put('felt-site', name, name, { contentType: 'text/html; charset=utf-8', cacheControl: REVALIDATE });
    }
    // Objects no release has, before, between and after the release's names: each range must see them.
    for (const stale of ['404-old.html', 'articles/a-05999x.html', 'zz-old.html']) gcs.put('felt-site', stale, 'old', { contentType: 'text/html' });
    gcs.resetLog();
    let result!: Awaited<ReturnType<typeof deploy>>;
    const atOnce = await listingsAtOnce(3, async () => {
      result = await deploy({
        contentDir: fixture.contentDir,
        distDir: dist,
        bucket: 'felt-site',
        storage: choice(),
        reporter: quiet().reporter,
        website: false,
      });
    });
    expect(atOnce).toBe(3);
    expect(result.unchanged).toBe(10_500);
    expect(result.upload).toEqual([]);
    expect(result.stale).toEqual(['404-old.html', 'articles/a-05999x.html', 'zz-old.html']);
    // Three ranges of about 3,500 names: four pages of 1,000 each at most, none listed twice.
    const pages = gcs.log.filter((r) => r.kind === 'object.list');
    expect(pages.length).toBeLessThanOrEqual(3 * 4);
    expect(pages.filter((p) => !p.query.pageToken).map((p) => [p.query.startOffset ?? '', p.query.endOffset ?? ''].join(' … '))).toHaveLength(3);
  });

  it('deploy lists the bucket while it walks the release, not after (about 2 s of walking at 100,000 articles)', async () => {
    const dist = path.join(fixture.root, 'dist');
    const folders = Array.from({ length: 4000 }, (_, n) => `f${String(n).padStart(4, '0')}`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const folder of folders) {
      await mkdir(path.join(dist, folder), { recursive: true });
      await writeFile(path.join(dist, folder, 'index.html'), folder);
      // Old enough for the checksum cache to keep (not racy), and already deployed as this release has it.
      await utimes(path.join(dist, folder, 'index.html'), hourAgo, hourAgo);
      gcs.put('felt-site', `${folder}/index.html`, folder, { contentType: 'text/html; charset=utf-8', cacheControl: REVALIDATE });
    }
    const run = () =>
      deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: 'felt-site', storage: choice(), reporter: quiet().reporter, website: false });
    expect(await run()).toMatchObject({ upload: [], unchanged: 4000 });
    // The next deploy: when its first listing request arrives, a page is written into a folder of the release. A deploy
    // that walks first has read every folder by then and never sees it; one that lists while it walks (folders in turn)
    // has not reached that folder yet, and uploads the page.
    let written = false;
    gcs.beforeAnswer = async (request) => {
      if (written || request.method !== 'GET' || !request.path.endsWith('/o')) return;
      written = true;
      await writeFile(path.join(dist, folders[0]!, 'late.html'), 'late');
    };
    try {
      const again = await run();
      expect(written).toBe(true);
      expect(again.upload).toEqual([`${folders[0]}/late.html`]);
      expect(again.unchanged).toBe(4000);
    } finally {
      gcs.beforeAnswer = undefined;
    }
  });

  it('publish lists the buckets while it reads the publish record (12 MB at 100,000 articles), not after', async () => {
    put('felt-test-dev', 'alpha', 'Alpha');
    await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
    put('felt-test-dev', 'beta', 'Beta');
    // The record's download is held until a listing arrives (or 3 s): a publish that reads the record first lists nothing meanwhile.
    let listings = 0;
    let listedMeanwhile = 0;
    let release!: () => void;
    const listed = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(() => release(), 3000);
    gcs.beforeAnswer = async (request) => {
      // Asked before the server has named the request's kind: a listing is a GET of …/o, a download has alt=media.
      if (request.method === 'GET' && request.path.endsWith('/o')) {
        listings++;
        release();
      } else if (request.query.alt === 'media' && decodeURIComponent(request.path).endsWith('felt/publish-record.json')) {
        await listed;
        listedMeanwhile = listings;
      }
    };
    try {
      const result = await publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter });
      expect(result.copied).toEqual(['articles/en_US/beta.md']);
    } finally {
      gcs.beforeAnswer = undefined;
      clearTimeout(timer);
    }
    expect(listedMeanwhile).toBeGreaterThan(0);
    expect([...(await recordOf())!.keys()]).toEqual(['articles/en_US/alpha.md', 'articles/en_US/beta.md']);
  });

  it('asks for every listing at once, not one after the other (each page is a round trip to GCS)', async () => {
    for (const locale of ['en_US', 'ru_RU', 'tr_TR']) {
      gcs.put('felt-test-dev', `articles/${locale}/alpha.md`, articleSource('alpha', 'Alpha', locale), { contentType: 'text/markdown; charset=utf-8' });
      gcs.put('felt-test', `articles/${locale}/beta.md`, articleSource('beta', 'Beta', locale), { contentType: 'text/markdown; charset=utf-8' });
    }
    // Articles and pictures of three locales, in dev and in production.
    expect(
      await listingsAtOnce(12, () => publish({ contentDir: fixture.contentDir, all: true, yes: true, storage: choice(), reporter: quiet().reporter })),
    ).toBe(12);
    // Articles and pictures of three locales.
    expect(await listingsAtOnce(6, () => pull({ contentDir: fixture.contentDir, storage: choice(), reporter: quiet().reporter }))).toBe(6);
    expect((await readdir(path.join(fixture.contentDir, 'articles', 'tr_TR'))).sort()).toEqual(['alpha.md', 'beta.md']);
  });
});
