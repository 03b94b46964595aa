// Cover benchmark (issue 18 item 7): `node bench/covers.mjs [COVERS]` or `npm run bench:covers`.
// Compiles bench/covers/bench.ts with esbuild (dependencies stay external), then
// prints the CPU each cover costs: its SVG, its share card, and the full set of
// rasters a provider's picture gets, in one process, twice, interleaved.
//
// `node bench/covers.mjs --stage CONTENT_DIR` times the build's whole picture
// stage on a content folder instead (bench/covers/stage.ts): every SVG and the
// share cards, cold and with the image cache warm (issue 13).
import { withTypeScript } from '../scripts/withTypeScript.mjs';

if (process.argv[2] === '--stage') {
  await withTypeScript('bench/covers/stage.ts', async ({ runStageBench }) => {
    await runStageBench(process.argv[3] ?? 'content');
  });
} else {
  await withTypeScript('bench/covers/bench.ts', async ({ runCoverBench }) => {
    await runCoverBench(Number(process.argv[2] ?? 100));
  });
}
