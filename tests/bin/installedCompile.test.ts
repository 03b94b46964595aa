/**
 * felt compiled where it is installed: inside a project's node_modules, its dependencies hoisted beside it. The
 * compile keeps dependencies external by telling felt's own sources from everything else; it used to take any path
 * with /node_modules/ in it for a dependency's, so an installed felt bundled jsonc-parser's UMD build, whose own
 * requires then failed at run time ("Cannot find module './impl/format'").
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FELT_ROOT } from '../../shared/paths.ts';
import { tempDir } from '../site/helpers.ts';

const run = promisify(execFile);
/** What compiling and running felt reads of its own folder. */
const SOURCES = ['package.json', 'tsconfig.json', 'bin', 'cli', 'scripts', 'shared', 'site', 'locales', 'prompts'];

describe('felt installed in a project', () => {
  it('compiles with its dependencies external and builds a site', async () => {
    const project = await tempDir();
    const modules = path.join(project, 'node_modules');
    const felt = path.join(modules, 'felt');
    await mkdir(felt, { recursive: true });
    for (const source of SOURCES)
      await cp(path.join(FELT_ROOT, source), path.join(felt, source), { recursive: true, filter: (f) => !f.includes(`${path.sep}node_modules`) });
    // npm's layout: felt's dependencies beside it, not inside it.
    for (const name of await readdir(path.join(FELT_ROOT, 'node_modules'))) {
      if (name !== '.bin' && name !== 'felt') await symlink(path.join(FELT_ROOT, 'node_modules', name), path.join(modules, name), 'dir');
    }
    await run(process.execPath, ['scripts/compile.mjs'], { cwd: felt });
    const out = path.join(project, 'dist');
    const { stdout } = await run(
      process.execPath,
      [path.join(felt, 'bin/felt.js'), 'build', '--content', path.join(FELT_ROOT, 'tests/fixtures/site'), '--out', out, '--json'],
      {
        cwd: project,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ articles: 5 });
  }, 120_000);
});
