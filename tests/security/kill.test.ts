/**
 * Issue 6, item 4 (first half): work killed with SIGKILL midway loses
 * nothing and breaks nothing.
 *
 * - `felt build` killed while it writes a 1,000-article site: the previous
 *   dist/ is complete, byte for byte, and served; the unfinished release it leaves is
 *   not served and the next build succeeds.
 * - `felt pull` killed midway: every article file in content/ is whole
 *   (equal to the bucket's), the content still loads, and a rerun finishes.
 * - `felt generate` killed midway: every stored article is whole, and a
 *   rerun of the same command keeps them and writes only what is missing.
 */
import { LIMITS } from '../../shared/limits.ts';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, readlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { loadContent } from '../../site/content/loadContent.ts';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { startServer } from '../../site/serve/server.ts';
import { LocalStorage } from '../../cli/storage/local.ts';
import { TEMP_MARK } from '../../shared/atomicWrite.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fakeOpenAi.ts';
import { articleSource, makeFixture, type Fixture } from '../support/fixtureSite.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { cleanEnv, runFelt, STACK_TRACE } from '../support/cli.ts';
import { listFiles } from './support/xssSite.ts';

const fixtures: Fixture[] = [];
let llm: FakeOpenAi;

beforeAll(async () => {
  llm = await startFakeOpenAi();
}, 120_000);

afterAll(async () => {
  await llm?.close();
  await Promise.all(fixtures.map((f) => f.cleanup()));
});

async function fixture(options: Parameters<typeof makeFixture>[0] = {}): Promise<Fixture> {
  const made = await makeFixture(options);
  fixtures.push(made);
  return made;
}

/** Polls until `ready` says so, then kills the child with SIGKILL. */
function killWhen(ready: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 20) {
  let resolveKilled!: (value: boolean) => void;
  const killed = new Promise<boolean>((resolve) => (resolveKilled = resolve));
  const onSpawn = (child: ChildProcess) => {
    const started = Date.now();
    const tick = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return resolveKilled(false);
      if ((await ready().catch(() => false)) || Date.now() - started > timeoutMs) {
        child.kill('SIGKILL');
        return resolveKilled(true);
      }
      setTimeout(tick, everyMs);
    };
    void tick();
  };
  return { onSpawn, killed };
}

async function count(folder: string, pattern = /\.md$/): Promise<number> {
  return (await readdir(folder).catch(() => [] as string[])).filter((n) => pattern.test(n)).length;
}

async function digestTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of await listFiles(dir))
    out.set(
      file,
      createHash('sha256')
        .update(await readFile(path.join(dir, file)))
        .digest('hex'),
    );
  return out;
}

/** A raw request path, sent byte for byte. */
function rawStatus(base: string, pathname: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(`GET ${pathname} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text }));
  });
}

describe('felt build killed with SIGKILL midway', () => {
  const BIG = 1000;
  it('leaves the previous dist/ complete and served; what it leaves unfinished is never served', async () => {
    const base = await tempDir('felt-kill-build-');
    const smallContent = await fixtureCopy();
    const out = path.join(base, 'dist');
    await buildSite({ contentDir: smallContent, outDir: out });
    const before = await digestTree(out);

    // 1,000 small articles (about 1,200 pages): long enough a build to be caught while it writes its first 200.
    const bigContent = await fixtureCopy();
    const folder = path.join(bigContent, 'articles', 'en_US');
    await Promise.all(
      Array.from({ length: BIG }, (_, i) =>
        writeFile(
          path.join(folder, `bulk-${i}.md`),
          articleSource(`bulk-${i}`, `Bulk Article ${i}`, 'en_US', `Intro ${i}.\n\n## One\n\n${'Text of the article. '.repeat(40)}\n`),
        ),
      ),
    );
    // The build writes into a folder among the releases dist/ links to, not served: a full build into its staging
    // folder (site/build/output.ts), this rebuild into its new release (site/build/commit.ts).
    const served = path.basename(await readlink(out));
    const unfinished = async () => (await readdir(`${out}.releases`).catch(() => [] as string[])).filter((n) => n !== served).map((n) => `dist.releases/${n}`);
    // Killed once such a folder holds article pages: the build is writing.
    const { onSpawn, killed } = killWhen(async () => {
      for (const name of await unfinished()) if ((await count(path.join(base, name, 'articles'), /^bulk-/)) >= 200) return true;
      return false;
    });
    const run = await runFelt(['build', '--content', bigContent, '--out', out], { onSpawn, timeoutMs: 120_000 });
    expect(await killed).toBe(true);
    expect(run.signal).toBe('SIGKILL');

    // The old site, byte for byte: nothing of the killed build in it.
    expect(await digestTree(out)).toEqual(before);
    const leftovers = await unfinished();
    expect(leftovers.length).toBeGreaterThan(0);
    const server = await startServer({ root: out, port: 0 });
    try {
      const home = await fetch(server.url + '/');
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('First Steps in Betting');
      expect((await fetch(server.url + '/articles/first-steps')).status).toBe(200);
      expect((await fetch(server.url + '/articles/bulk-1')).status).toBe(404);
      for (const name of leftovers) {
        for (const attack of [`/../${name}/index.html`, `/..%2f${name}%2farticles%2fbulk-1%2findex.html`, `/${name}/articles/bulk-1/`]) {
          const response = await rawStatus(server.url, attack);
          expect([400, 404], attack).toContain(response.status);
          expect(response.body).not.toContain('Bulk Article');
        }
      }
    } finally {
      await server.close();
    }

    // The next build is not confused by the leftover, and replaces dist/ whole.
    const again = await runFelt(['build', '--content', smallContent, '--out', out], { timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    // (Feeds carry the build time, so the files are compared by name here.)
    expect([...(await digestTree(out)).keys()].sort()).toEqual([...before.keys()].sort());
  }, 180_000);
});

describe('felt build killed with SIGKILL while it makes an incremental release', () => {
  const LATE = 1000;
  it('leaves only whole files in dist/, keeps serving, and the next build finishes the commit', async () => {
    const base = await tempDir('felt-kill-commit-');
    const content = await fixtureCopy();
    const out = path.join(base, 'dist');
    // The previous build, by the same CLI, so the next one is incremental.
    expect((await runFelt(['build', '--content', content, '--out', out], { timeoutMs: 120_000 })).code).toBe(0);
    const folder = path.join(content, 'articles', 'en_US');
    await Promise.all(
      Array.from({ length: LATE }, (_, i) => writeFile(path.join(folder, `late-${i}.md`), articleSource(`late-${i}`, `Late Article ${i}`, 'en_US'))),
    );
    // Killed the moment the new release appears beside the served one: files are being moved and linked into it.
    const releases = `${out}.releases`;
    const made = async () => (await readdir(releases)).filter((n) => !n.startsWith('.'));
    const { onSpawn, killed } = killWhen(async () => (await made()).length > 1, 120_000, 5);
    const run = await runFelt(['build', '--content', content, '--out', out], { onSpawn, timeoutMs: 150_000 });
    expect(await killed).toBe(true);
    expect(run.signal).toBe('SIGKILL');

    // Every file is whole: each page ends its document, each JSON file parses.
    const files = await listFiles(out);
    for (const file of files.filter((f) => f.endsWith('.html')))
      expect((await readFile(path.join(out, file), 'utf8')).trimEnd().endsWith('</html>'), file).toBe(true);
    for (const file of files.filter((f) => f.endsWith('.json') && !f.startsWith('.felt/')))
      expect(() => JSON.parse(readFileSync(path.join(out, file), 'utf8')), file).not.toThrow();
    const server = await startServer({ root: out, port: 0 });
    try {
      expect((await fetch(server.url + '/')).status).toBe(200);
      expect((await fetch(server.url + '/articles/first-steps')).status).toBe(200);
    } finally {
      await server.close();
    }

    // The next build finishes what the killed one started: every new article is there, only two releases are left.
    const again = await runFelt(['build', '--content', content, '--out', out], { timeoutMs: 150_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(await readdir(releases)).toHaveLength(2);
    const pages = new Set((await listFiles(out)).filter((f) => /^articles\/late-\d+\/index\.html$/.test(f)));
    expect(pages.size).toBe(LATE);
    for (const file of pages) expect((await readFile(path.join(out, file), 'utf8')).trimEnd().endsWith('</html>'), file).toBe(true);
  }, 240_000);
});

describe('felt pull killed with SIGKILL midway', () => {
  it('leaves no half-written article; the content loads, and a rerun finishes the pull', async () => {
    const project = await fixture();
    for (const id of ['about-us', 'privacy-policy', 'terms']) {
      await mkdir(path.join(project.contentDir, 'pages', 'en'), { recursive: true });
      await writeFile(path.join(project.contentDir, 'pages', 'en', `${id}.md`), `---\ntitle: ${id}\ndescription: The ${id} page.\n---\nText.\n`);
    }
    const bucket = new LocalStorage(path.join(project.root, '.buckets')).bucket('felt-test');
    await bucket.create().catch(() => undefined);
    const sources = new Map<string, string>();
    for (let i = 0; i < 800; i++) {
      const slug = `pulled-${i}`;
      const source = articleSource(slug, `Pulled Article ${i}`, 'en_US', `Intro ${i}.\n\n## One\n\n${'A long paragraph of the article. '.repeat(600)}\n`);
      sources.set(`${slug}.md`, source);
      await bucket.write(`articles/en_US/${slug}.md`, Buffer.from(source), { contentType: 'text/markdown; charset=utf-8' });
    }
    const folder = path.join(project.contentDir, 'articles', 'en_US');
    const { onSpawn, killed } = killWhen(async () => (await count(folder)) >= 100);
    const run = await runFelt(['pull', '--content', project.contentDir, '--storage', 'local'], { onSpawn, timeoutMs: 120_000 });
    expect(await killed).toBe(true);
    expect(run.signal).toBe('SIGKILL');

    const names = (await readdir(folder)).filter((n) => n.endsWith('.md'));
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(800);
    for (const name of names) expect(await readFile(path.join(folder, name), 'utf8'), name).toBe(sources.get(name));
    // The content folder is usable as it is: nothing half-written is taken for an article.
    await expect(loadContent(project.contentDir)).resolves.toBeDefined();

    const rerun = await runFelt(['pull', '--content', project.contentDir, '--storage', 'local'], { timeoutMs: 120_000 });
    expect(rerun.code, rerun.stderr).toBe(0);
    const after = (await readdir(folder)).filter((n) => n.endsWith('.md'));
    expect(after.sort()).toEqual([...sources.keys()].sort());
    for (const name of after) expect(await readFile(path.join(folder, name), 'utf8')).toBe(sources.get(name));
    // What the killed run was writing is cleared by the rerun (issue 16).
    expect((await readdir(folder)).filter((n) => n.startsWith(TEMP_MARK))).toEqual([]);
  }, 180_000);
});

describe('felt generate killed with SIGKILL midway', () => {
  it('keeps every finished article whole, and a rerun writes only what is missing', async () => {
    const project = await fixture();
    llm.delayMs = 40;
    const args = [
      'generate',
      '--content',
      project.contentDir,
      '--storage',
      'local',
      '--locale',
      'en_US',
      '--count',
      '24',
      '--concurrency',
      '3',
      '--date',
      '2026-05-01',
    ];
    const env = cleanEnv({ OPENAI_API_KEY: 'sk-kill-test-0123456789', OPENAI_BASE_URL: llm.url });
    const bucket = new LocalStorage(path.join(project.root, '.buckets')).bucket('felt-test-dev');
    const stored = async () => (await bucket.list('articles/en_US/').catch(() => [])).filter((o) => o.name.endsWith('.md'));
    const { onSpawn, killed } = killWhen(async () => (await stored()).length >= 5);
    const run = await runFelt(args, { env, onSpawn, timeoutMs: 120_000 });
    expect(await killed).toBe(true);
    expect(run.signal).toBe('SIGKILL');

    const first = await stored();
    expect(first.length).toBeGreaterThanOrEqual(5);
    expect(first.length).toBeLessThan(24);
    const kept = new Map<string, string>();
    for (const object of first) {
      const data = await bucket.read(object.name, { maxBytes: LIMITS.articleBytes });
      const slug = path.posix.basename(object.name, '.md');
      expect(parseArticle(data.toString('utf8'), `${slug}.md`, 'en_US').problems, object.name).toEqual([]);
      kept.set(object.name, data.toString('utf8'));
    }

    llm.delayMs = 0;
    const rerun = await runFelt([...args, '--json'], { env, timeoutMs: 120_000 });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toMatch(STACK_TRACE);
    const summary = JSON.parse(rerun.stdout) as { alreadyDone: number; stored: unknown[] };
    expect(summary.alreadyDone).toBe(first.length);
    expect(summary.alreadyDone + summary.stored.length).toBe(24);
    const all = await stored();
    expect(all).toHaveLength(24);
    for (const [name, text] of kept) expect((await bucket.read(name, { maxBytes: LIMITS.articleBytes })).toString('utf8')).toBe(text);
  }, 180_000);
});
