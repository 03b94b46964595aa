/**
 * Issue 13: a build that renders every page raises V8's interrupt budget (site/build/renderWorkers.ts
 * INTERRUPT_BUDGET), before its modules load and its threads start; a rebuild leaves V8 as it is. Seen from
 * outside: the compiled CLI is run with a preload that records every flag given to V8 at run time.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { INTERRUPT_BUDGET } from '../../site/build/renderWorkers.ts';
import { tempDir } from './helpers.ts';

const run = promisify(execFile);
const FELT = new URL('../../bin/felt.js', import.meta.url).pathname;

const RECORDER = `
const v8 = require('node:v8');
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  process.stderr.write('v8 flag: ' + flags + '\\n');
  return set.call(v8, flags);
};
`;

describe("V8's interrupt budget", () => {
  it('is raised by a build that renders every page, and left alone by a rebuild', async () => {
    const root = await tempDir();
    const content = path.join(root, 'content');
    await writeCorpus(content, 20);
    const recorder = path.join(root, 'recorder.cjs');
    await writeFile(recorder, RECORDER);
    const build = async (...flags: string[]) => {
      const { stderr } = await run(process.execPath, ['--require', recorder, FELT, 'build', '--content', content, '--out', path.join(root, 'dist'), ...flags], {
        cwd: root,
      });
      return stderr.split('\n').filter((line) => line.startsWith('v8 flag: '));
    };
    expect(await build()).toContain(`v8 flag: --interrupt-budget=${INTERRUPT_BUDGET}`);
    expect((await build()).filter((line) => line.includes('interrupt-budget'))).toEqual([]);
    expect(await build('--no-incremental')).toContain(`v8 flag: --interrupt-budget=${INTERRUPT_BUDGET}`);
  });
});
