/**
 * Issue 14: faults in the middle of the swap. A real full disk and a real
 * read-only disk (a size-limited tmpfs, remounted read-only) meet `felt
 * build` at a chosen stage of its swap: the build is stopped there
 * (FELT_STOP_AT, site/build/crashPoints.ts), the disk is filled or made
 * read-only, and the build goes on. And what a hand can do: remove the
 * served release during a build, put a link or a file where felt keeps a
 * folder. Each time: one `felt:` line naming the path and what to do, exit
 * 1, no stack trace, and `dist` still serves a whole site (the link-integrity
 * check of tests/support/linkIntegrity.ts); the next build finishes.
 *
 * Tests run as root, so permissions restrict nothing: only a real mount
 * makes a disk full or read-only. Where `mount` is refused, those tests are
 * skipped, and their names say so.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmdirSync, statfsSync } from 'node:fs';
import { cp, lstat, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrashPoint } from '../../site/build/crashPoints.ts';
import { articleSource } from '../support/fixtureSite.ts';
import { RequestLeases } from '../../site/build/releaseReaders.ts';
import { linkProblems, siteFilesOf } from '../support/linkIntegrity.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { cleanEnv, runFelt, runFeltStoppedAt, STACK_TRACE, type Run } from '../support/cli.ts';

const SITE_URL = 'https://fixture.example';
const env = cleanEnv({ SOURCE_DATE_EPOCH: String(Date.UTC(2026, 10, 21, 12) / 1000) });

/** Why `mount` cannot be used here, or undefined when it can. */
function mountRefusal(): string | undefined {
  const probe = mkdtempSync(path.join(os.tmpdir(), 'felt-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).trim() || 'mount failed';
  } finally {
    rmdirSync(probe);
  }
}
const refused = mountRefusal();
const mounts: string[] = [];

/** A tmpfs of `size` at a new folder: the project folder of one test. */
async function tmpfs(size: string): Promise<string> {
  const dir = await tempDir('felt-tmpfs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  mounts.push(dir);
  return dir;
}

const remount = (dir: string, options: string) => execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });

let content: string;
let made = 0;

beforeAll(async () => {
  content = await fixtureCopy();
  const folder = path.join(content, 'articles', 'en_US');
  await Promise.all(Array.from({ length: 40 }, (_, i) => writeFile(path.join(folder, `bulk-${i}.md`), articleSource(`bulk-${i}`, `Bulk Article ${i}`))));
}, 60_000);

afterAll(async () => {
  // Unmounted even when a test failed midway (read-only or full): lazily, if something still holds it.
  for (const dir of mounts) {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    }
    await rm(dir, { recursive: true, force: true });
  }
  if (content) await rm(path.dirname(content), { recursive: true, force: true });
});

/** A new article: a new page folder the swap has to make, and listings that link to it. */
async function newArticle(): Promise<string> {
  const slug = `fault-${++made}`;
  await writeFile(path.join(content, 'articles', 'en_US', `${slug}.md`), articleSource(slug, `Fault Article ${made}`));
  return slug;
}

const build = (out: string, extra: string[] = []) => runFelt(['build', '--content', content, '--out', out, ...extra], { env, timeoutMs: 120_000 });

/** `felt build` stopped at `point`; `fault` runs while it is stopped, then it goes on. */
function stoppedBuild(out: string, point: CrashPoint, fault: () => Promise<void> | void): Promise<Run> {
  return runFeltStoppedAt(['build', '--content', content, '--out', out], point, fault, { env, timeoutMs: 120_000 });
}

type Tree = Map<string, string>;
async function tree(dir: string): Promise<Tree> {
  const out: Tree = new Map();
  for (const [name, bytes] of await siteFilesOf(dir)) out.set(name, createHash('sha256').update(bytes).digest('hex'));
  return out;
}

/** The served site is whole and is exactly `expected`. */
async function expectServes(out: string, expected: Tree): Promise<void> {
  expect(linkProblems(await siteFilesOf(out), SITE_URL)).toEqual([]);
  expect([...(await tree(out))].sort()).toEqual([...expected].sort());
}

/** One expected failure: one `felt:` line (with its hint), exit 1, no stack trace. */
function expectOneFeltLine(run: Run, line: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).not.toMatch(STACK_TRACE);
  const lines = run.stderr.split('\n').filter((text) => text.startsWith('felt:'));
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(line);
}

/** After the fault is gone: the next build serves the new site, whole, and leaves only two releases. */
async function expectNextBuildFinishes(out: string, slug: string): Promise<void> {
  const again = await build(out);
  expect(again.code, again.stderr).toBe(0);
  expect(linkProblems(await siteFilesOf(out), SITE_URL)).toEqual([]);
  expect(await readFile(path.join(out, 'articles', slug, 'index.html'), 'utf8')).toContain(`Fault Article ${made}`);
  const left = await readdir(`${out}.releases`);
  expect(left.filter((name) => name.startsWith('.'))).toEqual([]);
  expect(left.length).toBeLessThanOrEqual(2);
}

describe.skipIf(refused)(
  `a full or read-only disk in the middle of the swap (real tmpfs mounts; skipped when mount is refused${refused ? `: ${refused}` : ''})`,
  () => {
    it('the disk fills up (no inode, no block left) once the new release is opened: one felt: line naming the folder, exit 1, dist serves the previous build whole', async () => {
      const project = await tmpfs('64m');
      const out = path.join(project, 'dist');
      expect((await build(out)).code).toBe(0);
      const previous = await tree(out);
      const slug = await newArticle();
      const filler = path.join(project, 'filler');
      const run = await stoppedBuild(out, 'release-opened', async () => {
        await writeFile(filler, Buffer.alloc(80 * 1024 * 1024)).catch(() => undefined);
        const disk = statfsSync(project);
        remount(project, `nr_inodes=${disk.files - disk.ffree}`);
      });
      expectOneFeltLine(run, /^felt: .*dist\.releases\/.+: no space left on the disk \(while writing the site\)\. free some space/);
      await expectServes(out, previous);
      remount(project, 'nr_inodes=100000');
      await rm(filler);
      await expectNextBuildFinishes(out, slug);
    }, 180_000);

    const readOnly: { point: CrashPoint; names: RegExp }[] = [
      // A rebuild writes into its new release (site/build/commit.ts); the manifest, last, fails there.
      { point: 'pages-written', names: /dist\.releases\/[^/.][^/]*\// },
      { point: 'release-opened', names: /dist\.releases\/[^/.][^/]*\// },
      { point: 'link-made', names: /dist\.link-\d+/ },
    ];
    it.each(readOnly)(
      'the disk turns read-only at "$point": one felt: line naming the path that failed, exit 1, dist serves the previous build whole',
      async ({ point, names }) => {
        const project = await tmpfs('64m');
        const out = path.join(project, 'dist');
        expect((await build(out)).code).toBe(0);
        const previous = await tree(out);
        const slug = await newArticle();
        try {
          const run = await stoppedBuild(out, point, () => void remount(project, 'ro'));
          expectOneFeltLine(
            run,
            new RegExp(`^felt: [^ ]*${names.source}[^ ]*: the file system is read-only \\(while writing the site\\)\\. make the disk writable again`),
          );
          await expectServes(out, previous);
        } finally {
          remount(project, 'rw');
        }
        await expectNextBuildFinishes(out, slug);
      },
      180_000,
    );

    it('the disk turns read-only right after the flip: the new site is served, whole, exit 0; the next build removes what was left', async () => {
      const project = await tmpfs('64m');
      const out = path.join(project, 'dist');
      expect((await build(out)).code).toBe(0);
      const slug = await newArticle();
      try {
        const run = await stoppedBuild(out, 'flipped', () => void remount(project, 'ro'));
        expect(run.code, run.stderr).toBe(0);
        expect(linkProblems(await siteFilesOf(out), SITE_URL)).toEqual([]);
        expect(await readFile(path.join(out, 'articles', slug, 'index.html'), 'utf8')).toContain(`Fault Article ${made}`);
      } finally {
        remount(project, 'rw');
      }
      await expectNextBuildFinishes(out, slug);
    }, 180_000);
  },
);

describe('a release removed by hand, a link or a file where felt keeps a folder', () => {
  it('the served release removed by hand during an incremental build: one felt: line naming it, exit 1 (not an unexpected failure); the next build makes a whole site', async () => {
    const out = path.join(await tempDir('felt-removed-'), 'dist');
    expect((await build(out)).code).toBe(0);
    await newArticle();
    expect((await build(out)).code).toBe(0);
    const served = path.resolve(path.dirname(out), await readlink(out));
    // This build reworks the previous release and links in what changed since from the served one, which is gone.
    const slug = await newArticle();
    const run = await stoppedBuild(out, 'pages-written', () => rm(served, { recursive: true, force: true }));
    expectOneFeltLine(run, /^felt: .*dist\.releases\/[^/]+: removed during the build .*run felt build --no-incremental/);
    await expectNextBuildFinishes(out, slug);
  }, 180_000);

  it('a release that is a link to another folder: refused with one felt: line, and that folder is left as it was', async () => {
    const out = path.join(await tempDir('felt-linked-release-'), 'dist');
    expect((await build(out)).code).toBe(0);
    const previous = await tree(out);
    // A whole site elsewhere, linked in under a name that sorts after every release: the one a build would rework.
    const elsewhere = path.join(await tempDir('felt-elsewhere-'), 'site');
    await cp(path.resolve(path.dirname(out), await readlink(out)), elsewhere, { recursive: true });
    const before = await readdir(elsewhere, { recursive: true });
    await symlink(elsewhere, path.join(`${out}.releases`, 'zzzz'));
    await newArticle();
    const run = await build(out);
    expectOneFeltLine(run, /^felt: .*dist\.releases\/zzzz: a link to another folder, not a release felt made\. move it out of dist\.releases\//);
    expect((await readdir(elsewhere, { recursive: true })).sort()).toEqual(before.sort());
    expect((await lstat(path.join(elsewhere, '.felt', 'manifest.json'))).isFile()).toBe(true);
    await expectServes(out, previous);
  }, 120_000);

  it('a plain file among the releases: refused with one felt: line, not removed', async () => {
    const out = path.join(await tempDir('felt-file-release-'), 'dist');
    expect((await build(out)).code).toBe(0);
    const previous = await tree(out);
    await writeFile(path.join(`${out}.releases`, 'notes.txt'), 'mine');
    const run = await build(out);
    expectOneFeltLine(run, /^felt: .*dist\.releases\/notes\.txt: a file, not a release felt made/);
    expect(await readFile(path.join(`${out}.releases`, 'notes.txt'), 'utf8')).toBe('mine');
    await expectServes(out, previous);
  }, 120_000);

  it('dist.releases itself a link: refused with one felt: line', async () => {
    const project = await tempDir('felt-linked-releases-');
    const out = path.join(project, 'dist');
    await mkdir(path.join(project, 'elsewhere'));
    await symlink(path.join(project, 'elsewhere'), `${out}.releases`);
    const run = await build(out);
    expectOneFeltLine(run, /^felt: .*dist\.releases: .*not a folder felt made.*move it away, or choose another folder with --out/);
    expect(await readdir(path.join(project, 'elsewhere'))).toEqual([]);
  }, 60_000);

  it.each([
    { what: 'a file', make: (cache: string) => writeFile(cache, 'x'), says: 'a file' },
    { what: 'a link to nothing', make: (cache: string) => symlink(path.join(cache, '..', 'gone'), cache), says: 'a link that leads to no folder' },
  ])(
    '.felt-cache $what: one felt: line naming it, exit 1 (not an unexpected failure)',
    async ({ make, says }) => {
      const cache = path.join(path.dirname(content), '.felt-cache');
      await rm(cache, { recursive: true, force: true });
      await make(cache);
      try {
        const run = await build(path.join(await tempDir('felt-cache-'), 'dist'));
        expectOneFeltLine(run, new RegExp(`^felt: .*\\.felt-cache: ${says}, not a folder \\(felt keeps its article cache there\\)\\. move it away`));
      } finally {
        await rm(cache, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('.felt-cache a link to a folder (a cache on another disk): the build uses it', async () => {
    const cache = path.join(path.dirname(content), '.felt-cache');
    const other = await tempDir('felt-cache-elsewhere-');
    await rm(cache, { recursive: true, force: true });
    await symlink(other, cache);
    try {
      const run = await build(path.join(await tempDir('felt-cache-'), 'dist'));
      expect(run.code, run.stderr).toBe(0);
      expect(await readdir(other)).toContain('articles.json');
    } finally {
      await rm(cache, { force: true });
    }
  }, 60_000);
});

describe('readers hold the release they read', () => {
  it('a felt serve request in flight keeps its release, unchanged, through two builds; the lease goes with the request', async () => {
    const out = path.join(await tempDir('felt-serve-lease-'), 'dist');
    expect((await build(out)).code).toBe(0);
    await newArticle();
    expect((await build(out)).code).toBe(0);
    const leases = new RequestLeases(out);
    const request = await leases.enter();
    const before = await tree(request.root);
    // The first build makes the read release the spare; the second would rework it.
    await newArticle();
    expect((await build(out)).code).toBe(0);
    const slug = await newArticle();
    expect((await build(out)).code).toBe(0);
    expect(await readFile(path.join(out, 'articles', slug, 'index.html'), 'utf8')).toContain(`Fault Article ${made}`);
    expect([...(await tree(request.root))].sort()).toEqual([...before].sort());
    request.leave();
    expect((await readdir(`${out}.releases`)).filter((name) => name.startsWith('.lease-'))).toEqual([]);
    expect((await build(out)).code).toBe(0);
    expect(await readdir(`${out}.releases`)).toHaveLength(2);
  }, 120_000);
});
