// `npm run bench:batch` (issue 17): the time of a batch night's generate step
// at N articles in one locale, against the loopback OpenAI-compatible and GCS
// servers. Compiles bench/batch/bench.ts with esbuild and runs it.
//
//   npm run bench:batch                  500 articles
//   npm run bench:batch -- --count 100
import { parseArgs } from 'node:util';
import { withTypeScript } from '../scripts/withTypeScript.mjs';

const { values } = parseArgs({ options: { count: { type: 'string', default: '500' } } });
await withTypeScript('bench/batch/bench.ts', async ({ runBatchBench }) => {
  console.log(JSON.stringify(await runBatchBench({ count: Number(values.count) }), null, 2));
});
