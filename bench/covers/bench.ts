/**
 * What one cover costs in CPU (user + system, every libvips thread), per
 * cover over `count` articles' subjects, one at a time:
 * - the generated cover's SVG (coverArt.ts), what the pages show;
 * - the same and its 1200 × 630 JPEG share card, all a build makes of it;
 * - the rasters of a provider's picture (AVIF and WebP at three widths and
 *   the card), made here from the SVG drawn as a PNG: what every generated
 *   cover cost when it was served as rasters.
 */
import sharp from 'sharp';
import { coverSvg, type CoverSubject } from '../../site/pictures/coverArt.ts';
import { COVER_HEIGHT, COVER_WIDTH } from '../../site/pictures/coverSizes.ts';
import { rasterise, shareCard } from '../../site/pictures/rasterise.ts';

const CATEGORIES = ['bettingStrategies', 'pokerGuides', 'gameRules', 'bettingTrends', 'winningTips', 'responsibleGambling', 'communities'];

export async function runCoverBench(count: number): Promise<void> {
  const subjects: CoverSubject[] = Array.from({ length: count }, (_, i) => ({ slug: `bench-article-${i}`, category: CATEGORIES[i % CATEGORIES.length] }));
  // The provider's pictures are ready before timing starts: drawing them is not part of their cost.
  const pngs = await Promise.all(
    subjects.map((s) =>
      sharp(Buffer.from(coverSvg(s, COVER_WIDTH, COVER_HEIGHT)))
        .png()
        .toBuffer(),
    ),
  );
  const kinds: [string, (i: number) => Promise<number>][] = [
    ['SVG', async (i) => Buffer.byteLength(coverSvg(subjects[i]!, COVER_WIDTH, COVER_HEIGHT))],
    [
      'SVG + share card (a generated cover)',
      async (i) => {
        const svg = coverSvg(subjects[i]!, COVER_WIDTH, COVER_HEIGHT);
        return Buffer.byteLength(svg) + (await shareCard(svg)).bytes.length;
      },
    ],
    ['AVIF + WebP x 3 widths + card (a provider picture)', async (i) => (await rasterise(pngs[i]!)).reduce((n, f) => n + f.bytes.length, 0)],
  ];
  await shareCard(coverSvg(subjects[0]!, COVER_WIDTH, COVER_HEIGHT)); // libvips' first call loads its codecs
  for (const round of [1, 2]) {
    for (const [label, make] of kinds) {
      const start = process.cpuUsage();
      let bytes = 0;
      for (let i = 0; i < count; i++) bytes += await make(i);
      const used = process.cpuUsage(start);
      const ms = (used.user + used.system) / 1000 / count;
      console.log(`round ${round}  ${label}: ${ms.toFixed(2)} ms CPU a cover, ${(bytes / count / 1024).toFixed(1)} KB`);
    }
  }
}
