/**
 * `felt build --threads` takes a whole number of at least 1, as every count felt's commands take (positiveInt): a
 * typo used to build on one thread without a word.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FELT_ROOT } from '../../shared/paths.ts';
import { tempDir } from '../site/helpers.ts';

const FELT = path.join(FELT_ROOT, 'bin/felt.js');

describe('felt build --threads', () => {
  it('refuses what is not a whole number of at least 1, in one line, before building anything', async () => {
    const out = path.join(await tempDir(), 'dist');
    for (const bad of ['abc', '0', '1.5', '1e3', '0x10']) {
      const failed = await promisify(execFile)(process.execPath, [
        FELT,
        'build',
        '--content',
        path.join(FELT_ROOT, 'tests/fixtures/site'),
        '--out',
        out,
        '--threads',
        bad,
      ]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code, bad).toBe(1);
      // The hint names the command that ran, not the catalogue's placeholder `felt <command> --help`.
      expect(failed?.stderr.trim().split('\n'), bad).toEqual([
        `felt: --threads must be a whole number of at least 1, not "${bad}". see \`felt build --help\` for the flags and their values`,
      ]);
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe('felt build --locale of a locale without articles', () => {
  it('builds the site (exit 0) and warns in one line that it has no article', async () => {
    const out = path.join(await tempDir(), 'dist');
    const content = path.join(FELT_ROOT, 'tests/fixtures/site');
    // Run from felt's folder: the path is shown relative to it.
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [FELT, 'build', '--content', content, '--out', out, '--locale', 'tr_TR'], {
      cwd: FELT_ROOT,
    });
    expect(stdout).toMatch(/^Built \d+ pages \(\d+ rendered, 0 articles, tr_TR, interface tr\)/);
    expect(stderr.trim().split('\n')).toEqual([
      `felt: warning: no tr_TR article in ${path.join('tests', 'fixtures', 'site', 'articles', 'tr_TR')}: the site has none. check --locale, or pull or generate its articles first`,
    ]);
    expect(existsSync(path.join(out, 'index.html'))).toBe(true);
  });
});
