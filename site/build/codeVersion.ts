import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FELT_ROOT } from '../../shared/paths.ts';

/**
 * The version of felt's own code: the compiled bundle when felt runs from it,
 * otherwise the sources of shared/ and site/ (tests run those). Any change to either
 * invalidates every cached page.
 */
let codeVersion: string | undefined;
export function feltCodeVersion(): string {
  if (codeVersion) return codeVersion;
  const hash = createHash('sha256');
  const bundle = ['lib/felt.js', 'lib/render-worker.js'].map((f) => path.join(FELT_ROOT, f)).filter((f) => existsSync(f));
  const files = bundle.length ? bundle : ['shared', 'site'].flatMap((dir) => sourceFiles(path.join(FELT_ROOT, dir)));
  for (const file of [...files, path.join(FELT_ROOT, 'package-lock.json')]) {
    if (existsSync(file)) hash.update(file).update(readFileSync(file));
  }
  codeVersion = hash.digest('base64url').slice(0, 22);
  return codeVersion;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(tsx?|css|svg|png)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}
