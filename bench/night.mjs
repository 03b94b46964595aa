// `npm run bench:night` (issue 12): the operator's whole night, measured, on
// the loopback GCS server through the real @google-cloud/storage client.
// Compiles bench/night/bench.ts with esbuild (dependencies stay external) and
// runs it; see that file for what is measured.
//
//   npm run bench:night                         10,000 articles (minutes)
//   npm run bench:night -- --sizes 10000,100000 both sizes (100,000 takes long)
import { parseArgs } from 'node:util';
import { withTypeScript } from '../scripts/withTypeScript.mjs';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000' }, work: { type: 'string' }, json: { type: 'boolean' } } });
await withTypeScript('bench/night/bench.ts', async ({ runNightBench }) => {
  const results = await runNightBench({ sizes: values.sizes.split(',').map(Number), work: values.work });
  if (values.json) console.log(JSON.stringify(results, null, 2));
});
