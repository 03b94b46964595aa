// felt as it was when a bench started, for every build of that run (run.mjs, killed.mjs, memory.mjs). The checkout's
// lib/ is not the bench's: a test run recompiles it (its setup runs scripts/compile.mjs), and a rebuild that found
// another code version there rendered every page (site/build/codeVersion.ts), while a build under way could lose a
// chunk the compile removed. The copy holds what bin/felt.js reads at run time: the bundle in lib/, package.json
// (engines) and package-lock.json (the dependencies' fingerprint), and what a build reads from felt's folder (the
// client sources it bundles, the UI strings, the static files); node_modules is the checkout's, linked.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from './corpus.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUN_TIME = ['bin', 'lib', 'package.json', 'package-lock.json', 'site', 'shared', 'locales', 'prompts'];

/** lib/ as a compile leaves it: each file's name, size and time. */
function libState() {
  const lib = path.join(ROOT, 'lib');
  return readdirSync(lib, { recursive: true })
    .map((name) => {
      const info = statSync(path.join(lib, name), { throwIfNoEntry: false });
      return `${name} ${info?.size} ${info?.mtimeMs}`;
    })
    .sort()
    .join('\n');
}

/**
 * Copies felt into `<work>/felt-code` and returns its bin/felt.js. Copied again while a compile changes lib/
 * meanwhile. Then one build of a five-article site, untimed: the copy bundles its browser assets once, into its own
 * .felt-cache/assets/ (keyed by their paths), as the checkout had them before a bench's first timed build.
 */
export async function freezeFelt(work) {
  const copy = path.join(work, 'felt-code');
  for (let attempt = 1; ; attempt++) {
    const before = libState();
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    let copied = true;
    try {
      for (const name of RUN_TIME) if (existsSync(path.join(ROOT, name))) cpSync(path.join(ROOT, name), path.join(copy, name), { recursive: true });
    } catch {
      // A file a compile removed meanwhile.
      copied = false;
    }
    if (copied && libState() === before) break;
    if (attempt === 5) throw new Error('lib/ kept changing while it was copied (a compile running?): run the bench again once it is done');
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  const felt = path.join(copy, 'bin', 'felt.js');
  const warm = path.join(copy, 'warm-up');
  await writeCorpus(path.join(warm, 'content'), 5);
  const build = spawnSync(process.execPath, [felt, 'build', '--content', path.join(warm, 'content'), '--out', path.join(warm, 'dist')], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`the frozen felt's warm-up build failed (${build.status}):\n${build.stderr.slice(-2000)}`);
  return felt;
}
