// Pipeline benchmarks (issue 4): `node bench/pipeline.mjs` or `npm run bench:pipeline`.
// Compiles bench/pipeline/bench.ts with esbuild (dependencies stay external),
// then runs it: 200 articles generated against a loopback LLM answering after
// 300 ms at concurrency 8, and a pull of a 10,000-article bucket when nothing
// changed. Prints the figures, and JSON with --json.
import { withTypeScript } from '../scripts/withTypeScript.mjs';
import { benchArgs } from './args.mjs';

const USAGE = `usage: node bench/pipeline.mjs [--json]

  --json  print the figures as JSON too`;
const { values } = benchArgs(USAGE, { options: { json: { type: 'boolean', default: false } } });

await withTypeScript('bench/pipeline/bench.ts', async ({ runPipelineBench }) => {
  const figures = await runPipelineBench({ json: values.json });
  if (values.json) console.log(JSON.stringify(figures, null, 2));
});
