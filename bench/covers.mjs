// Cover benchmark (issue 18 item 7): `node bench/covers.mjs [COVERS]` or `npm run bench:covers`.
// Compiles bench/covers/bench.ts with esbuild (dependencies stay external), then
// prints the CPU each cover costs: its SVG, its share card, and the full set of
// rasters a provider's picture gets, in one process, twice, interleaved.
//
// `node bench/covers.mjs --stage [CONTENT_DIR]` times the build's whole picture
// stage on a content folder instead (bench/covers/stage.ts): every SVG and the
// share cards, cold and with the image cache warm (issue 13).
import { statSync } from 'node:fs';
import { withTypeScript } from '../scripts/withTypeScript.mjs';
import { benchArgs } from './args.mjs';

const USAGE = `usage: node bench/covers.mjs [COVERS]
       node bench/covers.mjs --stage [CONTENT_DIR]

  COVERS   how many covers are timed, one at a time (default 100)
  --stage  times the build's whole picture stage on CONTENT_DIR instead (default: content)`;
const { values, positionals } = benchArgs(USAGE, { allowPositionals: true, options: { stage: { type: 'boolean', default: false } } });
if (positionals.length > 1) {
  console.error(`give at most one ${values.stage ? 'content folder' : 'count of covers'}\n\n${USAGE}`);
  process.exit(2);
}

if (values.stage) {
  const contentDir = positionals[0] ?? 'content';
  if (!statSync(contentDir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`bench/covers.mjs: ${contentDir} is not a folder; --stage takes a content folder (bench/corpus.mjs writes one)`);
    process.exit(2);
  }
  await withTypeScript('bench/covers/stage.ts', async ({ runStageBench }) => {
    await runStageBench(contentDir);
  });
} else {
  const covers = positionals[0] ?? '100';
  if (!/^[1-9]\d*$/.test(covers)) {
    console.error(`COVERS must be a positive integer, not ${covers}\n\n${USAGE}`);
    process.exit(2);
  }
  await withTypeScript('bench/covers/bench.ts', async ({ runCoverBench }) => {
    await runCoverBench(Number(covers));
  });
}
