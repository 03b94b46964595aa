/**
 * Issue 14: never a broken moment. `felt build` is killed with SIGKILL at
 * each of its stages (FELT_CRASH_AT, site/build/crashPoints.ts) and at
 * random moments while it renders, in incremental and in full rebuilds of a
 * site of about a hundred articles. After every kill, what dist/ serves is,
 * byte for byte, the previous build or the new one, and whole (every page a
 * whole document, every JSON file parses, every internal link, asset,
 * sitemap and feed entry resolves); `felt serve` serves it. The next build
 * finishes the work and leaves only the current and the previous release.
 * (The search index is compared by what queries find, see tree().)
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_POINTS, MIGRATION_CRASH_POINTS, type CrashPoint } from '../../site/build/crashPoints.ts';
import { servedRoot } from '../../site/build/releaseReaders.ts';
import { deploy } from '../../cli/deploy.ts';
import { createReporter } from '../../cli/report.ts';
import { articleSource, captureStreams } from '../support/fixtureSite.ts';
import { startServer } from '../../site/serve/server.ts';
import { linkProblems, siteFilesOf } from '../support/linkIntegrity.ts';
import { distSearch } from '../support/searchDist.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { cleanEnv, runFelt, STACK_TRACE } from '../support/cli.ts';

const SITE_URL = 'https://fixture.example';
/**
 * Articles the site starts with (beside the fixture's five), and how many each round adds: the site grows by a
 * round's articles with every kill (22 rounds: about 70 articles to 160), and each round builds it three times (the
 * reference, the killed build, the finishing one). What a kill may break does not grow with the site: more articles
 * only made the file slower (150 and 10 a round took 195 s alone, these 107 s).
 */
const ARTICLES = 60;
const NEW_PER_ROUND = 4;
/** Every build of the test has the same time, so two builds of the same content are the same bytes. */
const env = cleanEnv({ SOURCE_DATE_EPOCH: String(Date.UTC(2026, 10, 21, 12) / 1000) });

/** The points a full rebuild passes through: it writes every file over the spare release's (commit.ts, openRewrite), links none. */
const FULL_POINTS: CrashPoint[] = ['prepared', 'release-opened', 'pages-written', 'release-pruned', 'release-complete', 'link-made', 'flipped'];
/** The kills in the migration of an older felt's plain dist/: after the move, and with the link made but not renamed in. */
const MIGRATION_POINTS: CrashPoint[] = [...MIGRATION_CRASH_POINTS, 'link-made'];
/** Killed at or after this point, the new build is what is served. */
const SERVES_NEW: CrashPoint[] = ['flipped'];

export const tally = { kills: 0, stages: new Set<string>(), broken: 0, randomLanded: 0 };

/** Kills at random moments, after the kills at each stage. */
const RANDOM_KILLS = 4;

/** How long the last uninterrupted rebuild took, from spawn to exit: the range of the random kills' moments. */
let lastRebuildMs = 1500;

/** The build after a kill, which finishes the work: an incremental rebuild, timed. */
async function finishingBuild(): ReturnType<typeof runFelt> {
  const started = Date.now();
  const run = await runFelt(['build', '--content', content, '--out', out], { env, timeoutMs: 120_000 });
  if (run.code === 0) lastRebuildMs = Date.now() - started;
  return run;
}

type Tree = Map<string, string>;

/** What queries of these words find tells two search indexes apart (see tree()). */
const SEARCH_QUERIES = ['round', 'article', 'bulk', 'soon gone', 'legacy note', 'artcile'];

async function tree(dir: string): Promise<Tree> {
  const out: Tree = new Map();
  for (const [name, bytes] of await siteFilesOf(dir)) {
    if (!name.startsWith('search/')) out.set(name, createHash('sha256').update(bytes).digest('hex'));
  }
  // An incremental build's search index is a base plus a delta, a cold one's a base (issue 13): the
  // same answers from other files. It counts as one entry: what the queries find, with the manifest's
  // every folder checked by linkProblems().
  const search = distSearch(dir);
  const found = await Promise.all(SEARCH_QUERIES.map(async (query) => (await search(query)).sort()));
  out.set('search/ (query results)', createHash('sha256').update(JSON.stringify(found)).digest('hex'));
  return out;
}

const same = (a: Tree, b: Tree) => a.size === b.size && [...a].every(([name, hash]) => b.get(name) === hash);

let content: string;
let base: string;
let out: string;
let round = 0;

/** One nightly change: NEW_PER_ROUND new articles dated after all others, 3 edited, 2 deleted. */
async function changeContent(): Promise<void> {
  round++;
  const folder = path.join(content, 'articles', 'en_US');
  for (let i = 0; i < NEW_PER_ROUND; i++) {
    const slug = `round-${round}-${i}`;
    await writeFile(
      path.join(folder, `${slug}.md`),
      articleSource(slug, `Round ${round} Article ${i}`).replace('date: 2026-01-02', `date: 2026-02-${String((round % 27) + 1).padStart(2, '0')}`),
    );
  }
  for (let i = 0; i < 3; i++) {
    const file = path.join(folder, `bulk-${(round * 7 + i) % ARTICLES}.md`);
    await writeFile(file, (await readFile(file, 'utf8')) + `\nEdited in round ${round}.\n`);
  }
  for (let i = 0; i < 2; i++) await rm(path.join(folder, `bulk-${(round * 11 + i) % ARTICLES}-gone.md`), { force: true });
  // The deleted ones are round-specific extra articles, so every round deletes something that was built.
  for (let i = 0; i < 2; i++)
    await writeFile(
      path.join(folder, `bulk-${(round * 11 + 11 + i) % ARTICLES}-gone.md`),
      articleSource(`bulk-${(round * 11 + 11 + i) % ARTICLES}-gone`, `Soon Gone ${round} ${i}`),
    );
}

/** The newest article of this round's change. */
const newestSlug = () => `round-${round}-${NEW_PER_ROUND - 1}`;

/** A cold build of the same content in another folder: the exact bytes the new build must serve. */
async function reference(): Promise<Tree> {
  const dir = path.join(base, `reference-${round}`);
  const run = await runFelt(['build', '--content', content, '--out', dir, '--no-incremental'], { env, timeoutMs: 120_000 });
  expect(run.code, run.stderr).toBe(0);
  const result = await tree(dir);
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}.releases`, { recursive: true, force: true });
  return result;
}

/** What must hold after any kill: the site served is whole and is one of the two builds. */
async function expectWhole(previous: Tree, next: Tree, what: string): Promise<'previous' | 'new'> {
  const served = await tree(out);
  const problems = linkProblems(await siteFilesOf(out), SITE_URL);
  const state = same(served, previous) ? 'previous' : same(served, next) ? 'new' : undefined;
  if (problems.length || !state) tally.broken++;
  expect(problems, what).toEqual([]);
  expect(state, `${what}: dist/ is neither the previous build nor the new one`).toBeDefined();
  const server = await startServer({ root: out, port: 0 });
  try {
    expect((await fetch(`${server.url}/`)).status, what).toBe(200);
    const newest = `/articles/${newestSlug()}`;
    expect((await fetch(server.url + newest)).status, what).toBe(state === 'new' ? 200 : 404);
  } finally {
    await server.close();
  }
  return state!;
}

/** What dist/ serves, as the last round left it (expectFinished saw it): the next round's previous site. */
let lastFinished: Tree | undefined;

/** The site dist/ serves now: the one the last round finished with (not read again), or read. */
async function servedTree(): Promise<Tree> {
  const known = lastFinished;
  lastFinished = undefined;
  return known ?? tree(out);
}

/** After a build that finished: the new site, and nothing left but the current and the previous release. */
async function expectFinished(next: Tree, what: string): Promise<void> {
  expect(same(await tree(out), next), `${what}: the next build serves the new site`).toBe(true);
  lastFinished = next;
  const releases = await readdir(`${out}.releases`);
  expect(
    releases.filter((name) => name.startsWith('.')),
    `${what}: staging leftovers`,
  ).toEqual([]);
  expect(releases.length, `${what}: releases kept`).toBeLessThanOrEqual(2);
  expect(
    (await readdir(base)).filter((name) => name.startsWith('dist') && name !== 'dist' && name !== 'dist.releases'),
    what,
  ).toEqual([]);
  expect(path.resolve(base, await readlink(out))).toMatch(/dist\.releases\/[^/]+$/);
}

beforeAll(async () => {
  base = await tempDir('felt-crash-');
  content = await fixtureCopy();
  const folder = path.join(content, 'articles', 'en_US');
  await Promise.all(
    Array.from({ length: ARTICLES }, (_, i) =>
      writeFile(
        path.join(folder, `bulk-${i}.md`),
        articleSource(`bulk-${i}`, `Bulk Article ${i}`, 'en_US', `Intro ${i}.\n\n## One\n\n${'Text of the article. '.repeat(30)}\n`),
      ),
    ),
  );
  out = path.join(base, 'dist');
  const first = await runFelt(['build', '--content', content, '--out', out], { env, timeoutMs: 120_000 });
  expect(first.code, first.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  // The figures for the README's security table.
  console.log(
    `crash test: ${tally.kills} kills over ${tally.stages.size} stages (${tally.randomLanded} of ${RANDOM_KILLS} random kills before the build ended), broken states: ${tally.broken}`,
  );
  if (base) await rm(base, { recursive: true, force: true });
});

describe('felt build killed at every stage', () => {
  const cases: { point: CrashPoint; mode: 'incremental' | 'full' }[] = [
    ...CRASH_POINTS.map((point) => ({ point, mode: 'incremental' as const })),
    ...FULL_POINTS.map((point) => ({ point, mode: 'full' as const })),
  ];
  it.each(cases)(
    '$mode rebuild killed at "$point": dist/ is the previous or the new site, whole; the next build finishes',
    async ({ point, mode }) => {
      const previous = await servedTree();
      await changeContent();
      const next = await reference();
      const args = ['build', '--content', content, '--out', out, ...(mode === 'full' ? ['--no-incremental'] : [])];
      const run = await runFelt(args, { env: { ...env, FELT_CRASH_AT: point }, timeoutMs: 120_000 });
      expect(run.signal, run.stderr).toBe('SIGKILL');
      tally.kills++;
      tally.stages.add(`${mode} ${point}`);
      const state = await expectWhole(previous, next, `${mode} ${point}`);
      expect(state).toBe(SERVES_NEW.includes(point) ? 'new' : 'previous');

      const again = await finishingBuild();
      expect(again.code, again.stderr).toBe(0);
      await expectFinished(next, `${mode} ${point}`);
    },
    180_000,
  );
});

describe('felt build killed at random moments while it renders and swaps', () => {
  it.each(Array.from({ length: RANDOM_KILLS }, (_, i) => i))(
    'kill %i: dist/ is the previous or the new site, whole',
    async () => {
      const previous = await servedTree();
      await changeContent();
      const next = await reference();
      // A kill anywhere from Node's start to the swap of such a build, as long as the last one took (up to 80% of it:
      // on a loaded machine one build takes a third less than the one before): a fixed range outlived the build once
      // the build got faster, and then the kill landed after it had finished.
      const delay = Math.round(lastRebuildMs * (0.05 + 0.75 * Math.random()));
      let killedAt = 0;
      const run = await runFelt(['build', '--content', content, '--out', out], {
        env,
        timeoutMs: 120_000,
        onSpawn: (child) =>
          setTimeout(() => {
            killedAt = delay;
            child.kill('SIGKILL');
          }, delay),
      });
      if (run.signal === 'SIGKILL') {
        tally.kills++;
        tally.randomLanded++;
        tally.stages.add('random');
      }
      await expectWhole(previous, next, `random kill after ${killedAt} ms (${run.signal ?? 'finished first'})`);
      const again = await finishingBuild();
      expect(again.code, again.stderr).toBe(0);
      await expectFinished(next, 'random kill');
    },
    180_000,
  );
});

describe('faults around the swap', () => {
  it('a link where felt expects its own: one felt: line, exit 1, and the served site stays whole', async () => {
    const elsewhere = await tempDir('felt-elsewhere-');
    const dir = path.join(await tempDir('felt-foreign-'), 'dist');
    await symlink(elsewhere, dir);
    const run = await runFelt(['build', '--content', content, '--out', dir], { env, timeoutMs: 120_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^felt: .*dist is a link to .*, not a site felt built/m);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect((await lstat(dir)).isSymbolicLink()).toBe(true);
    expect(await readdir(elsewhere)).toEqual([]);
  }, 60_000);

  it('the served release deleted by hand: the next build makes a whole site again', async () => {
    const served = path.resolve(base, await readlink(out));
    await rm(served, { recursive: true, force: true });
    const run = await runFelt(['build', '--content', content, '--out', out], { env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(linkProblems(await siteFilesOf(out), SITE_URL)).toEqual([]);
    expect(await readdir(`${out}.releases`)).toHaveLength(2);
  }, 120_000);

  it('a folder built by an older felt becomes the first release', async () => {
    const dir = path.join(await tempDir('felt-legacy-'), 'dist');
    const built = await runFelt(['build', '--content', content, '--out', dir], { env, timeoutMs: 120_000 });
    expect(built.code, built.stderr).toBe(0);
    // Made a plain folder again, as builds before releases left it.
    const release = path.resolve(path.dirname(dir), await readlink(dir));
    await unlink(dir);
    await rename(release, dir);
    await rm(`${dir}.releases`, { recursive: true, force: true });
    await writeFile(path.join(content, 'articles', 'en_US', 'legacy-note.md'), articleSource('legacy-note', 'Legacy Note'));
    const run = await runFelt(['build', '--content', content, '--out', dir], { env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect((await lstat(dir)).isSymbolicLink()).toBe(true);
    expect(linkProblems(await siteFilesOf(dir), SITE_URL)).toEqual([]);
    expect(await readFile(path.join(dir, 'articles', 'legacy-note', 'index.html'), 'utf8')).toContain('Legacy Note');
  }, 120_000);
});

describe("an older felt's plain dist/ killed while the build moves it into its first release", () => {
  it.each(MIGRATION_POINTS)(
    'killed at "%s": felt serve and felt deploy read the whole site all the same (no dist/ for a moment); the next build finishes',
    async (point) => {
      const project = await tempDir('felt-migrate-');
      const dir = path.join(project, 'dist');
      const built = await runFelt(['build', '--content', content, '--out', dir], { env, timeoutMs: 120_000 });
      expect(built.code, built.stderr).toBe(0);
      // Made a plain folder again, as builds before releases left it.
      const release = path.resolve(project, await readlink(dir));
      await unlink(dir);
      await rename(release, dir);
      await rm(`${dir}.releases`, { recursive: true, force: true });
      const previous = await tree(dir);
      const previousFiles = [...(await siteFilesOf(dir)).keys()].sort();
      await changeContent();
      const run = await runFelt(['build', '--content', content, '--out', dir], { env: { ...env, FELT_CRASH_AT: point }, timeoutMs: 120_000 });
      expect(run.signal, run.stderr).toBe('SIGKILL');
      tally.kills++;
      tally.stages.add(`migration ${point}`);
      expect(await lstat(dir).catch(() => undefined), 'the kill falls between the move and the link').toBeUndefined();

      const served = await servedRoot(dir);
      const problems = linkProblems(await siteFilesOf(served), SITE_URL);
      const whole = same(await tree(served), previous);
      if (problems.length || !whole) tally.broken++;
      expect(problems).toEqual([]);
      expect(whole, 'what is read is the site of the plain folder').toBe(true);
      const server = await startServer({ root: dir, port: 0 });
      try {
        expect((await fetch(`${server.url}/`)).status).toBe(200);
        expect((await fetch(`${server.url}/articles/bulk-1`)).status).toBe(200);
      } finally {
        await server.close();
      }
      const deployed = await deploy({
        contentDir: content,
        distDir: dir,
        bucket: 'site',
        storage: { storage: 'local', localRoot: path.join(project, 'buckets') },
        reporter: createReporter({ stdout: captureStreams().stdout as never, stderr: captureStreams().stderr as never, tty: false }),
      });
      expect(deployed.failed).toEqual([]);
      expect(deployed.uploaded).toEqual(previousFiles);

      const again = await runFelt(['build', '--content', content, '--out', dir], { env, timeoutMs: 120_000 });
      expect(again.code, again.stderr).toBe(0);
      expect((await lstat(dir)).isSymbolicLink()).toBe(true);
      expect(linkProblems(await siteFilesOf(dir), SITE_URL)).toEqual([]);
      expect(await readFile(path.join(dir, 'articles', newestSlug(), 'index.html'), 'utf8')).toContain(`Round ${round} Article ${NEW_PER_ROUND - 1}`);
      expect((await readdir(`${dir}.releases`)).filter((name) => name.startsWith('.'))).toEqual([]);
      expect((await readdir(project)).filter((name) => name.startsWith('dist') && name !== 'dist' && name !== 'dist.releases')).toEqual([]);
    },
    180_000,
  );
});
