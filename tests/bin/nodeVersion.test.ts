/**
 * bin/felt.js refuses a Node older than package.json's "engines" with one
 * line, instead of failing deep inside a build (Dirent.parentPath, used to
 * walk folders, arrived in Node 20.12).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const FELT = path.resolve('bin/felt.js');

async function feltOn(version: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'felt-node-'));
  const preload = path.join(dir, 'version.cjs');
  // What an older Node reports; the preload runs before bin/felt.js.
  await writeFile(preload, `Object.defineProperty(process, 'version', { value: ${JSON.stringify(version)} });\n`);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--require', preload, FELT, '--version']);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the Node version felt needs', () => {
  it('names 20.12 as the oldest Node in package.json', async () => {
    const { engines } = JSON.parse(await import('node:fs/promises').then((fs) => fs.readFile('package.json', 'utf8')));
    expect(engines.node).toBe('>=20.12');
  });

  it('refuses Node 20.11 with one line naming both versions', async () => {
    const run = await feltOn('v20.11.1');
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'felt: needs Node 20.12 or newer, this is v20.11.1. Install a newer Node (https://nodejs.org) and run felt again.',
    ]);
  });

  it('runs on Node 20.12 and on the next major', async () => {
    for (const version of ['v20.12.0', 'v22.0.0']) {
      const run = await feltOn(version);
      expect(run.code, version).toBe(0);
      expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });
});
