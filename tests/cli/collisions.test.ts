/**
 * Route collisions through the real `felt` command (bin/felt.js, lib/):
 * `felt build` exits 1 with one line per collision and no stack, leaving the
 * previous site exactly as it was; `felt check` reports the same problems.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixtureCopy } from '../site/helpers.ts';

const run = promisify(execFile);
const FELT = new URL('../../bin/felt.js', import.meta.url).pathname;

async function felt(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [FELT, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** Every file under dir (the build record in .felt/ included) and its bytes. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      files[path.relative(dir, path.join(entry.parentPath, entry.name))] = (await readFile(path.join(entry.parentPath, entry.name))).toString('base64');
  }
  return files;
}

describe('felt build and felt check on colliding routes', () => {
  it('refuse with exit code 1, one line per collision, and the previous site untouched', async () => {
    const content = await fixtureCopy();
    const root = path.dirname(content);
    expect((await felt(root, 'build', '--content', 'content', '--out', 'dist', '--threads', '1')).code).toBe(0);
    const before = await snapshot(path.join(root, 'dist'));
    const beside = await readdir(root);

    const categories = JSON.parse(await readFile(path.join(content, 'categories.json'), 'utf8'));
    categories.bettingStrategies.slug = '404';
    categories.pokerGuides.children.beginnerPokerTips.slug = '500'; // /ultimate-poker-guides-strategies/500: no collision
    categories.pokerGuides.slug = 'authors';
    await writeFile(path.join(content, 'categories.json'), JSON.stringify(categories, null, 2));

    const build = await felt(root, 'build', '--content', 'content', '--out', 'dist', '--threads', '1');
    expect(build.code).toBe(1);
    expect(build.stdout).toBe('');
    // In the order the build meets them: the authors page comes before the 404 page.
    expect(build.stderr.trimEnd().split('\n')).toEqual([
      'content/categories.json:68 field "pokerGuides.slug": category "authors" and the authors page both write authors/index.html and page-data/authors/page-data.json (rename the category slug)',
      'content/categories.json:3 field "bettingStrategies.slug": category "404" and the 404 page both write page-data/404/page-data.json (rename the category slug)',
      'felt: 2 problems in content. fix the files listed above and run the command again',
    ]);
    expect(await snapshot(path.join(root, 'dist'))).toEqual(before);
    expect(await readdir(root)).toEqual(beside);

    const check = await felt(root, 'check', '--content', 'content');
    expect(check.code).toBe(1);
    const checked = check.stdout.split('\n').filter((line) => line.startsWith('error'));
    expect(checked).toEqual([
      expect.stringMatching(
        /^error +content\/categories\.json:\d+ field "pokerGuides\.slug": category "authors" and the authors page both write authors\/index\.html and page-data\/authors\/page-data\.json \(rename the category slug\)$/,
      ),
      expect.stringMatching(
        /^error +content\/categories\.json:\d+ field "bettingStrategies\.slug": category "404" and the 404 page both write page-data\/404\/page-data\.json \(rename the category slug\)$/,
      ),
    ]);
    expect(`${build.stderr}${check.stderr}${check.stdout}`).not.toMatch(/^\s+at /m);
  });
});
