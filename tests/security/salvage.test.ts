/**
 * Issue 13: an incremental build killed after it opened its release (the
 * spare renamed, site/build/commit.ts) leaves no spare. The next build
 * reworks that unfinished release instead of linking every file of the site
 * into an empty folder (minutes at 100,000 articles): it keeps each file that
 * is the served release's own, and links the rest. What it serves is, byte
 * for byte, what a cold build of the same content writes. A full build (a
 * settings change) killed after it opened the spare leaves it unfinished
 * too: the full build after it writes every file over that release.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CrashPoint } from '../../site/build/crashPoints.ts';
import { articleSource } from '../support/fixtureSite.ts';
import { siteFilesOf } from '../support/linkIntegrity.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { cleanEnv, runFelt } from '../support/cli.ts';

const env = cleanEnv({ SOURCE_DATE_EPOCH: String(Date.UTC(2026, 10, 21, 12) / 1000) });
const ARTICLES = 120;

let content: string;
let round = 0;

/** 10 new articles, dated after the others, and one edited. */
async function changeContent(): Promise<void> {
  round++;
  const folder = path.join(content, 'articles', 'en_US');
  for (let i = 0; i < 10; i++) {
    const slug = `round-${round}-${i}`;
    await writeFile(
      path.join(folder, `${slug}.md`),
      articleSource(slug, `Round ${round} ${i}`).replace('date: 2026-01-02', `date: 2026-02-${String(round + 1).padStart(2, '0')}`),
    );
  }
  const edited = path.join(folder, `bulk-${round}.md`);
  await writeFile(edited, `${await readFile(edited, 'utf8')}\nEdited in round ${round}.\n`);
}

async function build(out: string, extra: string[] = [], crashAt?: CrashPoint) {
  const run = await runFelt(['build', '--content', content, '--out', out, '--json', ...extra], {
    env: crashAt ? { ...env, FELT_CRASH_AT: crashAt } : env,
    timeoutMs: 120_000,
  });
  return { ...run, result: run.code === 0 ? (JSON.parse(run.stdout) as { release?: { from: string; linked: number } }) : undefined };
}

/** Every file of the served site and its digest (the search index is left out: an incremental one is a base and a delta). */
async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [name, bytes] of await siteFilesOf(dir)) if (!name.startsWith('search/')) files.set(name, createHash('sha256').update(bytes).digest('hex'));
  return files;
}

/** What `out` serves is, file for file, what a cold build of the same content writes into `base`/reference. */
async function expectColdBuild(out: string, base: string): Promise<void> {
  const reference = path.join(base, 'reference');
  expect((await build(reference, ['--no-incremental'])).code).toBe(0);
  const [served, cold] = [await tree(out), await tree(reference)];
  expect([...served.keys()].sort()).toEqual([...cold.keys()].sort());
  for (const [name, hash] of cold) expect(served.get(name), name).toBe(hash);
}

/** A site built, then rebuilt on two nights (the second made from the spare): it has a spare release. */
async function siteWithASpare(): Promise<{ base: string; out: string }> {
  const base = await tempDir('felt-salvage-');
  const out = path.join(base, 'dist');
  expect((await build(out)).code).toBe(0);
  for (const from of ['none', 'chained']) {
    await changeContent();
    expect((await build(out)).result?.release?.from).toBe(from);
  }
  return { base, out };
}

/** The release a killed build left unfinished beside the served one. */
async function unfinishedRelease(out: string): Promise<string> {
  const served = path.basename(await readlink(out));
  return path.join(
    `${out}.releases`,
    (await readdir(`${out}.releases`)).find((name) => !name.startsWith('.') && name !== served)!,
  );
}

/** siteWithASpare, then killed at `point` on the third night. */
async function killedOnTheThirdNight(point: CrashPoint): Promise<{ base: string; out: string }> {
  const { base, out } = await siteWithASpare();
  await changeContent();
  const killed = await build(out, [], point);
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  return { base, out };
}

beforeAll(async () => {
  content = await fixtureCopy();
  const folder = path.join(content, 'articles', 'en_US');
  for (let i = 0; i < ARTICLES; i++)
    await writeFile(path.join(folder, `bulk-${i}.md`), articleSource(`bulk-${i}`, `Bulk ${i}`, 'en_US', `Intro ${i}.\n\n## One\n\nText.\n`));
}, 60_000);

describe('the next build after an incremental build killed with its release open', () => {
  it.each<{ point: CrashPoint; linkedAtMost: (files: number) => number }>([
    // Killed once it had linked what it needed: the next build links nothing, keeps every file.
    { point: 'release-linked', linkedAtMost: () => 0 },
    // Killed as it opened the spare: what the served build changed is linked again, the rest kept.
    { point: 'release-opened', linkedAtMost: (files) => files / 3 },
    { point: 'pages-written', linkedAtMost: (files) => files / 3 },
  ])(
    'killed at $point: reworks the unfinished release and serves what a cold build writes',
    async ({ point, linkedAtMost }) => {
      const { base, out } = await killedOnTheThirdNight(point);
      // No spare now: only the served release and the unfinished one.
      const releases = (await readdir(`${out}.releases`)).filter((name) => !name.startsWith('.'));
      expect(releases).toHaveLength(2);

      const next = await build(out);
      expect(next.code, next.stderr).toBe(0);
      expect(next.result?.release?.from).toBe('salvaged');
      expect(next.result!.release!.linked).toBeLessThanOrEqual(linkedAtMost((await tree(out)).size));
      await expectColdBuild(out, base);
      expect((await readdir(`${out}.releases`)).filter((name) => !name.startsWith('.'))).toHaveLength(2);
      await rm(base, { recursive: true, force: true });
    },
    180_000,
  );

  it("an unfinished release with stray files and folders in it: they go, and the site is still a cold build's", async () => {
    const { base, out } = await killedOnTheThirdNight('pages-written');
    const unfinished = await unfinishedRelease(out);
    // What no build of this site writes: a file, a folder of files, and a folder where a file of the site goes.
    await writeFile(path.join(unfinished, 'stray.html'), 'stray');
    await mkdir(path.join(unfinished, 'stray-folder', 'deeper'), { recursive: true });
    await writeFile(path.join(unfinished, 'stray-folder', 'deeper', 'x.json'), '{}');
    await rm(path.join(unfinished, 'robots.txt'), { force: true });
    await mkdir(path.join(unfinished, 'robots.txt', 'inside'), { recursive: true });

    const next = await build(out);
    expect(next.code, next.stderr).toBe(0);
    expect(next.result?.release?.from).toBe('salvaged');
    await expectColdBuild(out, base);
    await rm(base, { recursive: true, force: true });
  }, 180_000);
});

describe('the next build after a full build killed over the spare', () => {
  it('a settings change killed after its pages were written over the spare: the full build after it rewrites that release, strays and all', async () => {
    const { base, out } = await siteWithASpare();
    // A new tagline is on every page: a full build, written over the spare (site/build/commit.ts, openRewrite).
    const settings = path.join(content, 'site.json');
    const before = await readFile(settings, 'utf8');
    await writeFile(settings, before.replace(/"en": "[^"]*"/, '"en": "A new tagline."'));
    try {
      expect((await build(out)).result?.release?.from, 'the settings change itself, unkilled, for the record').toBe('rewritten');
      await changeContent();
      await writeFile(settings, before);
      const killed = await build(out, [], 'pages-written');
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const unfinished = await unfinishedRelease(out);
      // What no build of this site writes: a stray file, and a folder where a file of the site goes.
      await writeFile(path.join(unfinished, 'stray.html'), 'stray');
      await rm(path.join(unfinished, 'robots.txt'), { force: true });
      await mkdir(path.join(unfinished, 'robots.txt', 'inside'), { recursive: true });

      const next = await build(out);
      expect(next.code, next.stderr).toBe(0);
      expect(next.result?.release).toEqual({ from: 'rewritten', linked: 0 });
      await expectColdBuild(out, base);
      expect((await readdir(`${out}.releases`)).filter((name) => !name.startsWith('.'))).toHaveLength(2);
    } finally {
      await writeFile(settings, before);
      await rm(base, { recursive: true, force: true });
    }
  }, 180_000);
});
