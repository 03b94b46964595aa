// `node scripts/screenshots.mjs`: retakes the README's screenshots
// (docs/screenshots/{home,article}-{phone,desktop}.png) from a build of the
// bundled content. Compiles scripts/audit/screenshots.ts with esbuild first.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = path.join(root, 'lib', `screenshots-${process.pid}.mjs`);
await build({
  absWorkingDir: root,
  entryPoints: ['scripts/audit/screenshots.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  logLevel: 'warning',
});
try {
  const { takeScreenshots } = await import(pathToFileURL(outfile).href);
  for (const file of await takeScreenshots()) console.log(path.relative(root, file));
} finally {
  rmSync(outfile, { force: true });
}
