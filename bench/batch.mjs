// `npm run bench:batch` (issue 17): the time of a batch night's generate step
// at N articles in one locale, against the loopback OpenAI-compatible and GCS
// servers. Compiles bench/batch/bench.ts with esbuild and runs it.
//
//   npm run bench:batch                  500 articles
//   npm run bench:batch -- --count 100
import { withTypeScript } from '../scripts/withTypeScript.mjs';
import { benchArgs } from './args.mjs';

const USAGE = `usage: node bench/batch.mjs [--count 500]

  --count   articles in the one locale whose batch night's generate step is timed (default 500)`;
const { values } = benchArgs(USAGE, { options: { count: { type: 'string', default: '500' } } });
await withTypeScript('bench/batch/bench.ts', async ({ runBatchBench }) => {
  console.log(JSON.stringify(await runBatchBench({ count: Number(values.count) }), null, 2));
});
