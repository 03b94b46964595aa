/** Types of bench/corpus.mjs for the TypeScript benches (bench/searchCompare.ts). */
export interface CorpusArticle {
  slug: string;
  title: string;
  date: string;
  category: string;
  subcategory: string;
  author: string;
}
export function writeCorpus(dir: string, count: number, options?: { seed?: number; offset?: number; fresh?: boolean }): Promise<CorpusArticle[]>;
export function articleBody(rand: () => number): string;
/** mulberry32: numbers in [0, 1), the same sequence for the same seed. */
export function random(seed: number): () => number;
