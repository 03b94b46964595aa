// `npm run bench:night` (issue 12): the operator's whole night, measured, on
// the loopback GCS server through the real @google-cloud/storage client.
// Compiles bench/night/bench.ts with esbuild (dependencies stay external) and
// runs it; see that file for what is measured.
//
//   npm run bench:night                         10,000 articles (minutes)
//   npm run bench:night -- --sizes 10000,100000 both sizes (100,000 takes long)
//   npm run bench:night -- --new 500            500 new articles per locale a night (a batch night)
//   npm run bench:night -- --no-fresh           cold and warm nights only (the fresh runner's night is skipped)
//   npm run bench:night -- --keep --work DIR    keep DIR and the buckets after each night (bench/night/bench.ts saveBuckets)
//   npm run bench:night -- --resume --work DIR  go on from a kept run with today's code: an upgrade night, then the warm night
//   npm run bench:night -- --resume --serve --work DIR   only serve a kept run's buckets (prints the environment), to run a step by hand
//   npm run bench:night -- --build-felt OTHER/bin/felt.js  builds and checks with another felt (a resumed run: the one whose build caches the kept runner has)
//   npm run bench:night -- --profile DIR        each warm step under node --cpu-prof, profiles in DIR/{step}/
//   npm run bench:night -- --content-only       publish → pull → check only (no builds, no deploys)
//   npm run bench:night -- --deploy-dist DIST   one locale's warm deploy of a built DIST (bench/night/deployScale.ts); with --profile DIR, each deploy under --cpu-prof
import { withTypeScript } from '../scripts/withTypeScript.mjs';
import { benchArgs } from './args.mjs';

const USAGE = `usage: npm run bench:night -- [--sizes 10000] [--new 20] [--no-fresh] [--work <folder>] [--keep] [--resume] [--serve] [--build-felt <felt.js>] [--profile <folder>] [--content-only] [--deploy-dist <dist>] [--json]

  --sizes         article counts, comma-separated (default 10000; 100,000 takes long)
  --new           new articles per locale a night (default 20; 500 makes a batch night)
  --no-fresh      cold and warm nights only (the fresh runner's night is skipped)
  --work          the folder for the run (default: felt-bench-night in the system's temporary folder)
  --keep          keep the work folder and, after each night, the buckets (bench/night/bench.ts saveBuckets)
  --resume        go on from a kept run (--work) with today's code: an upgrade night, then the warm night
  --serve         with --resume, only serve the kept run's buckets (prints the environment), to run a step by hand
  --build-felt    build and check with another felt's bin/felt.js (a resumed run: the one whose build caches the kept runner has)
  --profile       each warm step under node --cpu-prof, profiles in <folder>/{step}/
  --content-only  publish → pull → check only (no builds, no deploys)
  --deploy-dist   one locale's warm deploy of a built <dist> (bench/night/deployScale.ts); with --profile, each deploy under --cpu-prof
  --json          also print the results as JSON`;
const { values } = benchArgs(USAGE, {
  options: {
    sizes: { type: 'string', default: '10000' },
    work: { type: 'string' },
    new: { type: 'string', default: '20' },
    json: { type: 'boolean' },
    'no-fresh': { type: 'boolean' },
    keep: { type: 'boolean' },
    resume: { type: 'boolean' },
    serve: { type: 'boolean' },
    'build-felt': { type: 'string' },
    profile: { type: 'string' },
    'content-only': { type: 'boolean' },
    'deploy-dist': { type: 'string' },
  },
});
if (values['deploy-dist']) {
  await withTypeScript('bench/night/deployScale.ts', ({ runDeployScale }) => runDeployScale(values['deploy-dist'], values.profile));
  process.exit(0);
}
await withTypeScript('bench/night/bench.ts', async ({ runNightBench }) => {
  const results = await runNightBench({
    sizes: values.sizes.split(',').map(Number),
    work: values.work,
    newPerLocale: Number(values.new),
    fresh: !values['no-fresh'],
    keep: values.keep,
    resume: values.resume,
    serve: values.serve,
    buildFelt: values['build-felt'],
    profile: values.profile,
    contentOnly: values['content-only'],
  });
  if (values.json) console.log(JSON.stringify(results, null, 2));
});
