/**
 * What already exists in a locale: slugs and titles from content/ and from
 * the dev bucket, plus those taken during this run. Reserving is synchronous,
 * so two concurrent answers cannot both take one slug.
 */
export class Registry {
  private readonly slugs = new Set<string>();
  private readonly titles: { title: string; words: Set<string>; category?: string }[] = [];

  add(slug: string, title?: string, category?: string): void {
    this.slugs.add(slug);
    if (title) this.titles.push({ title, words: titleWords(title), category });
  }

  hasSlug(slug: string): boolean {
    return this.slugs.has(slug);
  }

  /** An existing title whose words overlap this one's by at least `threshold` (Jaccard). */
  similarTitle(title: string, threshold = 0.7): string | undefined {
    const words = titleWords(title);
    for (const other of this.titles) if (jaccard(words, other.words) >= threshold) return other.title;
    return undefined;
  }

  titlesIn(category: string): string[] {
    return this.titles
      .filter((t) => t.category === category)
      .map((t) => t.title)
      .reverse();
  }

  get size(): number {
    return this.slugs.size;
  }
}

export function titleWords(title: string): Set<string> {
  return new Set(
    title
      .toLocaleLowerCase()
      .normalize('NFKC')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
