// Cover benchmark (issue 18 item 7): `node bench/covers.mjs [COVERS]` or `npm run bench:covers`.
// Compiles bench/covers/bench.ts with esbuild (dependencies stay external), then
// prints the CPU each cover costs: its SVG, its share card, and the full set of
// rasters a provider's picture gets, in one process, twice, interleaved.
import { withTypeScript } from '../scripts/withTypeScript.mjs';

await withTypeScript('bench/covers/bench.ts', async ({ runCoverBench }) => {
  await runCoverBench(Number(process.argv[2] ?? 100));
});
