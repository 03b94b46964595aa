import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { digestPieces } from '../../shared/digest.ts';
import { FELT_ROOT } from '../../shared/paths.ts';

/**
 * The version of felt's own code: the compiled bundle when felt runs from it,
 * otherwise the sources of shared/ and site/ (tests run those), and the versions
 * of its dependencies. Any change to these invalidates every cached page.
 */
let codeVersion: string | undefined;
export function feltCodeVersion(): string {
  if (codeVersion) return codeVersion;
  const bundle = ['lib/felt.js', 'lib/render-worker.js'].map((f) => path.join(FELT_ROOT, f)).filter((f) => existsSync(f));
  const files = bundle.length ? bundle : ['shared', 'site'].flatMap((dir) => sourceFiles(path.join(FELT_ROOT, dir)));
  codeVersion = digestPieces(
    (function* () {
      for (const file of files) if (existsSync(file)) yield* [file, readFileSync(file)];
      yield dependencyFingerprint(FELT_ROOT);
    })(),
  );
  return codeVersion;
}

/**
 * Which versions of its dependencies felt runs with: its package-lock.json in a checkout; in an installed felt
 * (npm never packs the lock) each dependency's installed version, as `root` resolves it. A dependency felt cannot
 * resolve counts as "?": it is found, or not, the same way on the next run.
 */
export function dependencyFingerprint(root: string): string {
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(lock)) return readFileSync(lock, 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const resolve = createRequire(path.join(root, 'package.json'));
  return Object.keys(manifest.dependencies ?? {})
    .sort()
    .map((name) => `${name}@${installedVersion(resolve, name)}`)
    .join('\n');
}

function installedVersion(resolve: NodeJS.Require, name: string): string {
  try {
    return (resolve(`${name}/package.json`) as { version: string }).version;
  } catch {
    // A package whose "exports" hide its package.json: found by its entry point, its folder's package.json read.
    try {
      let folder = path.dirname(resolve.resolve(name));
      while (!existsSync(path.join(folder, 'package.json')) && path.dirname(folder) !== folder) folder = path.dirname(folder);
      return (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version?: string }).version ?? '?';
    } catch {
      return '?';
    }
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(tsx?|css|svg|png)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}
