/**
 * `--out` never takes a folder felt did not build: a build makes its output
 * folder a link into `<out>.releases/`, moving a plain folder there in as the
 * first release, and a later build removes it. `felt build --out content`
 * (or `--out .`, or a folder of the operator's own) moved it away on the first
 * build and deleted it on the second, with exit code 0 both times.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutputFolder } from '../../cli/outputFolder.ts';
import { buildSite } from '../../site/build/build.ts';
import { FeltError } from '../../shared/errors.ts';
import { STACK_TRACE, runFelt } from '../support/cli.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';

/** The one line felt printed, after checking there was one line, exit code 1 and no stack trace. */
function oneLine(run: { code: number | null; stderr: string }): string {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).not.toMatch(STACK_TRACE);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('felt build --out', () => {
  it("refuses a folder of the operator's own, and moves nothing of it", async () => {
    const content = await fixtureCopy();
    const mine = path.join(await tempDir('felt-out-'), 'notes');
    await mkdir(path.join(mine, 'docs'), { recursive: true });
    await writeFile(path.join(mine, 'docs', 'thesis.txt'), 'precious');
    for (let i = 0; i < 2; i++) {
      const line = oneLine(await runFelt(['build', '--content', content, '--out', mine], { timeoutMs: 120_000 }));
      expect(line).toMatch(/^felt: .*notes: --out names a folder felt did not build .*choose another folder with --out$/);
    }
    expect(await readFile(path.join(mine, 'docs', 'thesis.txt'), 'utf8')).toBe('precious');
    expect(existsSync(`${mine}.releases`)).toBe(false);
  }, 120_000);

  it('refuses the content folder, and a folder that holds it (--out .)', async () => {
    const content = await fixtureCopy();
    const before = (await readdir(content)).sort();
    expect(oneLine(await runFelt(['build', '--content', content, '--out', content], { timeoutMs: 120_000 }))).toMatch(
      /--out names the content folder or one that holds it/,
    );
    expect(oneLine(await runFelt(['build', '--content', content, '--out', '.'], { cwd: path.dirname(content), timeoutMs: 120_000 }))).toMatch(
      /--out names the content folder or one that holds it/,
    );
    expect((await readdir(content)).sort()).toEqual(before);
    expect(existsSync(`${content}.releases`)).toBe(false);
  }, 120_000);

  it('felt dev refuses them too, before it builds', async () => {
    const content = await fixtureCopy();
    expect(oneLine(await runFelt(['dev', '--content', content, '--out', path.join(content, 'articles'), '--port', '0'], { timeoutMs: 60_000 }))).toMatch(
      /--out names a folder felt did not build/,
    );
    expect(existsSync(path.join(content, 'articles.releases'))).toBe(false);
  }, 60_000);

  // Node 20's recursive mkdir looped for ever on /proc's ENOENT: the run is killed after 60 s, which fails the test.
  it.runIf(existsSync('/proc/self'))(
    'refuses a folder where no folder can be made (/proc/x) at once, instead of spinning',
    async () => {
      const content = await fixtureCopy();
      const started = Date.now();
      const run = await runFelt(['build', '--content', content, '--out', '/proc/x'], { timeoutMs: 60_000 });
      expect(run.signal, `killed after ${Date.now() - started} ms: felt build hung`).toBeNull();
      expect(oneLine(run)).toMatch(
        /^felt: \/proc\/x: --out names a folder where felt cannot make one \(\/proc takes no new folders\)\. .*with --out, e\.g\. dist$/,
      );
    },
    90_000,
  );

  it("refuses a folder inside another site's release (--out dist/ru_RU beside a built dist/), and writes nothing there", async () => {
    const content = await fixtureCopy();
    const dist = path.join(await tempDir('felt-out-'), 'dist');
    const first = await runFelt(['build', '--content', content, '--out', dist], { timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const before = (await readdir(dist)).sort();
    for (const out of [path.join(dist, 'ru_RU'), path.join(dist, 'articles', 'ru_RU')]) {
      const line = oneLine(await runFelt(['build', '--content', content, '--locale', 'ru_RU', '--out', out], { timeoutMs: 120_000 }));
      expect(line).toMatch(
        /--out names a folder inside a site felt built \(.*dist\.releases\/[^)]+\): the next build of that site would drop it\. build each site into a folder of its own beside the other, e\.g\. --out dist-ru_RU$/,
      );
    }
    expect((await readdir(dist)).sort()).toEqual(before);
  }, 240_000);

  it('still builds into a new folder, an empty one, a site felt built, and a new folder inside the content folder', async () => {
    const content = await fixtureCopy();
    const base = await tempDir('felt-out-');
    await mkdir(path.join(base, 'empty'));
    for (const out of [path.join(base, 'new'), path.join(base, 'empty'), path.join(base, 'new'), path.join(content, 'dist')]) {
      const run = await runFelt(['build', '--content', content, '--out', out], { timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(path.join(out, 'index.html')), out).toBe(true);
    }
  }, 240_000);
});

describe('checkOutputFolder', () => {
  it('takes a plain folder that holds .felt/ (a site an older felt built, before releases)', async () => {
    const base = await tempDir('felt-out-');
    await mkdir(path.join(base, 'dist', '.felt'), { recursive: true });
    await writeFile(path.join(base, 'dist', 'index.html'), 'old site');
    expect(() => checkOutputFolder(path.join(base, 'dist'), path.join(base, 'content'))).not.toThrow();
  });

  it('refuses with BAD_PATH, naming the flag', async () => {
    const base = await tempDir('felt-out-');
    await mkdir(path.join(base, 'content', 'articles'), { recursive: true });
    await writeFile(path.join(base, 'content', 'site.json'), '{}');
    await writeFile(path.join(base, 'content', 'articles', 'note.md'), '# A note');
    for (const out of [base, path.join(base, 'content'), path.join(base, 'content', 'articles')]) {
      const error = (() => {
        try {
          checkOutputFolder(out, path.join(base, 'content'));
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, out).toBeInstanceOf(FeltError);
      expect((error as FeltError).code).toBe('BAD_PATH');
      expect((error as FeltError).message).toMatch(/^--out names /);
    }
  });
});

describe('buildSite, called without the CLI (a script, a test)', () => {
  it("refuses a folder felt did not build too, and leaves it whole: the guard is the build's own", async () => {
    const content = await fixtureCopy();
    const mine = path.join(await tempDir('felt-out-'), 'notes');
    await mkdir(mine, { recursive: true });
    await writeFile(path.join(mine, 'thesis.txt'), 'precious');
    const failure = await buildSite({ contentDir: content, outDir: mine, threads: 1 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(FeltError);
    expect((failure as FeltError).code).toBe('BAD_PATH');
    expect((failure as FeltError).message).toMatch(/--out names a folder felt did not build/);
    expect(await readdir(mine)).toEqual(['thesis.txt']);
    expect(existsSync(`${mine}.releases`)).toBe(false);
  }, 60_000);
});

describe('the built site by the name `felt build --out` gives it', () => {
  it('is what felt serve --out serves: one line naming that folder when it holds no site', async () => {
    const missing = path.join(await tempDir('felt-serve-out-'), 'site');
    const line = oneLine(await runFelt(['serve', '--out', missing, '--port', '0'], { timeoutMs: 20_000 }));
    expect(line).toBe(`felt: ${missing} holds no built site. run \`felt build\` first (or \`npm start\`, which builds and serves)`);
  });
});
