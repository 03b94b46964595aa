// Pipeline benchmarks (issue 4): `node bench/pipeline.mjs` or `npm run bench:pipeline`.
// Compiles bench/pipeline/bench.ts with esbuild (dependencies stay external),
// then runs it: 200 articles generated against a loopback LLM answering after
// 300 ms at concurrency 8, and a pull of a 10,000-article bucket when nothing
// changed. Prints the figures, and JSON with --json.
import { withTypeScript } from '../scripts/withTypeScript.mjs';

await withTypeScript('bench/pipeline/bench.ts', async ({ runPipelineBench }) => {
  const figures = await runPipelineBench({ json: process.argv.includes('--json') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures, null, 2));
});
