// Tools that only one script needs (Lighthouse for `npm run audit`, autocannon
// for `npm run bench:load`) are not felt's dependencies: Lighthouse alone pulls
// about 200 packages into every `npm install`. Each lives in scripts/tools/<name>/
// with its own package.json and lock, and is installed there the first time its
// script runs (and again when its lock changes). `npm install --no-save`, not
// `npm ci`: Lighthouse's trace engine asks for third-party-web@"latest", which
// `npm ci` refuses as out of sync with any lock once a newer version is out.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS_DIR = fileURLToPath(new URL('./tools/', import.meta.url));

/** The folder of an installed tool set; code placed in it resolves the tools' packages first, then felt's own. */
export function ensureTools(name) {
  const dir = path.join(TOOLS_DIR, name);
  const installed = path.join(dir, 'node_modules', '.package-lock.json');
  const lock = path.join(dir, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return dir;
  process.stderr.write(`felt: installing the ${name} tools into ${path.relative(process.cwd(), dir) || dir} (first run only)\n`);
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    process.stderr.write(`felt: could not install the ${name} tools; run \`npm ci\` in ${dir} and try again\n`);
    process.exit(1);
  }
  return dir;
}
