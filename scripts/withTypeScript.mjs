// Runs a TypeScript module of felt's (the audit, the screenshots, a bench)
// from a plain .mjs script: esbuild bundles it into lib/ (dependencies stay
// external, loaded from node_modules), `run` gets the module, and the bundle
// is removed afterwards, whatever happens.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function withTypeScript(entry, run, { plugins = [] } = {}) {
  const outfile = path.join(root, 'lib', `${path.basename(entry, path.extname(entry))}-${process.pid}-${Date.now()}.mjs`);
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    logLevel: 'warning',
    plugins,
  });
  try {
    return await run(await import(pathToFileURL(outfile).href));
  } finally {
    rmSync(outfile, { force: true });
  }
}
