/**
 * What already exists in a locale: slugs, titles, where each article sits
 * (category, subcategory) and its body's signature, from content/ and from
 * the dev bucket, plus those taken during this run. Reserving is synchronous,
 * so two concurrent answers cannot both take one slug.
 */
import { similarity, textWords, type Signature } from './similarity.ts';

export interface Entry {
  slug: string;
  title?: string;
  category?: string;
  subcategory?: string;
  signature?: Signature;
}

export interface Nearest {
  slug: string;
  similarity: number;
}

export class Registry {
  /** `language`: the BCP 47 tag titles are lowercased with (languageTag in existing.ts): in Turkish İ is i. */
  constructor(readonly language: string) {}

  private readonly bySlug = new Map<string, Entry>();
  private readonly titles: { title: string; words: Set<string>; category?: string; subcategory?: string }[] = [];
  private readonly entries: Entry[] = [];

  add(slug: string, title?: string, category?: string, more: Pick<Entry, 'subcategory' | 'signature'> = {}): void {
    // One article read from content/ and from the bucket counts once; what the first reading lacked, the second fills in.
    const known = this.bySlug.get(slug);
    const entry = known ?? { slug };
    const hadTitle = Boolean(entry.title);
    entry.title ??= title;
    entry.category ??= category;
    entry.subcategory ??= more.subcategory;
    entry.signature ??= more.signature;
    if (!known) {
      this.bySlug.set(slug, entry);
      this.entries.push(entry);
    }
    if (entry.title && !hadTitle)
      this.titles.push({ title: entry.title, words: titleWords(entry.title, this.language), category: entry.category, subcategory: entry.subcategory });
  }

  hasSlug(slug: string): boolean {
    return this.bySlug.has(slug);
  }

  /** An existing title whose words overlap this one's by at least `threshold` (Jaccard). */
  similarTitle(title: string, threshold = 0.7): string | undefined {
    const words = titleWords(title, this.language);
    for (const other of this.titles) if (jaccard(words, other.words) >= threshold) return other.title;
    return undefined;
  }

  /** The article whose body is most like `signature`, compared with every article of the locale that has one. */
  nearest(signature: Signature | undefined, except?: string): Nearest | undefined {
    if (!signature) return undefined;
    let best: Nearest | undefined;
    for (const entry of this.entries) {
      if (!entry.signature || entry.slug === except) continue;
      const score = similarity(signature, entry.signature);
      if (!best || score > best.similarity) best = { slug: entry.slug, similarity: score };
    }
    return best;
  }

  /** Titles of a category, those of `subcategory` first (the closest topics to avoid), newest first. */
  titlesIn(category: string, subcategory?: string): string[] {
    const inCategory = this.titles.filter((t) => t.category === category).reverse();
    if (!subcategory) return inCategory.map((t) => t.title);
    return [...inCategory.filter((t) => t.subcategory === subcategory), ...inCategory.filter((t) => t.subcategory !== subcategory)].map((t) => t.title);
  }

  /** Articles per "category/subcategory" (an article without a known subcategory counts under "other"). */
  coverage(exclude: ReadonlySet<string> = new Set()): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.entries) {
      if (!entry.category || exclude.has(entry.slug)) continue;
      const key = `${entry.category}/${entry.subcategory ?? 'other'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  get size(): number {
    return this.bySlug.size;
  }
}

/**
 * A title's words of two letters or more, lowercased as its language does. NFKC first, so full-width and ligature
 * letters read as the plain ones. With the machine's locale instead, a Turkish "İ" became "i" and a combining dot,
 * which split "İddaa" into "ddaa": a title and its lowercase twin shared a third of their words, not all.
 */
export function titleWords(title: string, language: string): Set<string> {
  return new Set(textWords(title.normalize('NFKC'), language).filter((w) => w.length > 1));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
