// Pipeline benchmarks (issue 4): `node bench/pipeline.mjs` or `npm run bench:pipeline`.
// Compiles bench/pipeline/bench.ts with esbuild (dependencies stay external),
// then runs it: 200 articles generated against a loopback LLM answering after
// 300 ms at concurrency 8, and a pull of a 10,000-article bucket when nothing
// changed. Prints the figures, and JSON with --json.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(path.join(os.tmpdir(), 'felt-bench-'));
const outfile = path.join(root, 'lib', `bench-pipeline-${path.basename(out)}.mjs`);
await build({
  absWorkingDir: root,
  entryPoints: ['bench/pipeline/bench.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
try {
  const { runPipelineBench } = await import(pathToFileURL(outfile).href);
  const figures = await runPipelineBench({ json: process.argv.includes('--json') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures, null, 2));
} finally {
  rmSync(outfile, { force: true });
  rmSync(out, { recursive: true, force: true });
}
