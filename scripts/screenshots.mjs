// `node scripts/screenshots.mjs`: retakes the README's screenshots
// (docs/screenshots/{home,listing,article}-{phone,desktop}[-dark].png) from a build of the
// bundled content. Compiles scripts/audit/screenshots.ts with esbuild first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTypeScript } from './withTypeScript.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await withTypeScript('scripts/audit/screenshots.ts', async ({ takeScreenshots }) => {
  for (const file of await takeScreenshots()) console.log(path.relative(root, file));
});
