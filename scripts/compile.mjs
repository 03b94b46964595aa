// Compiles the Node side of felt (cli/ and site/, not the browser code) into
// lib/ with esbuild. Dependencies stay external: they are loaded from
// node_modules at run time. The render worker is its own entry, loaded by
// site/build/renderWorkers.ts from next to the CLI bundle. Each command's
// modules are imported when it runs (cli/commands/*): `felt build` never
// loads the servers' or the storage clients' code, `felt --help` loads
// commander alone.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignClassFields } from './markdownItFields.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// markdown-it is bundled (its own dependencies stay external), its class fields assigned (markdownItFields.mjs).
const MARKDOWN_IT = fileURLToPath(import.meta.resolve('markdown-it'));
const markdownItFields = {
  name: 'markdown-it-fields',
  setup(b) {
    b.onResolve({ filter: /^markdown-it$/ }, () => ({ path: MARKDOWN_IT }));
    b.onLoad({ filter: /markdown-it\.mjs$/ }, async (args) => ({
      contents: assignClassFields(await readFile(args.path, 'utf8')),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { felt: 'cli/main.ts', 'render-worker': 'site/build/renderWorker.ts' },
  outdir: 'lib',
  bundle: true,
  // Chunks let each command load its modules (the site's, the servers', GCS and OpenAI clients) only when run.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [markdownItFields],
});
