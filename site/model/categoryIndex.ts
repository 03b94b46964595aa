/**
 * The category index of SPEC section 3: every entity of an article whose
 * category (normalised to camelCase) is configured files the article under
 * (category, subcategory, subsubcategory). An unknown or absent subcategory
 * files it under the category's "other".
 */
import type { Article, CategoryNode } from '../../shared/types.ts';
import { toCamelCase } from '../../shared/names.ts';

export const OTHER = 'other';

export interface IndexEntry {
  category: string;
  subcategory: string;
  subsubcategory: string | null;
  articleId: string;
}

export interface Placement {
  category: CategoryNode;
  subcategory: CategoryNode;
  subsubcategories: string[];
  /** The entity's own subcategory name ("recordKeeping") when the category does not know it and it was filed under "other". */
  unknownSubcategory?: string;
}

export interface CategoryIndex {
  /** SPEC section 3's index rows, one per (article, placement, subsubcategory): made when first read, as no page needs them. */
  readonly entries: IndexEntry[];
  /** Article ids per category key, newest first, without repeats. */
  byCategory: Map<string, string[]>;
  /** Article ids per "category/subcategory" key, newest first, without repeats. */
  bySubcategory: Map<string, string[]>;
  /**
   * Where an article of the index is filed, in the order of its entities. Looked up by its entity list, not its id:
   * the articles read from the article cache share one list per way of being filed (articleCache.ts), so a rebuild's
   * lookups go to a map of a few hundred lists, where a map of 100,000 ids missed the processor's caches.
   */
  placementsOf(article: Pick<Article, 'entities'>): readonly Placement[];
  /** The listings an article of the index is in, as placementsOf() orders them: its subcategories' and its categories'. */
  listsOf(article: Pick<Article, 'entities'>): { subcategories: readonly string[][]; categories: readonly string[][] };
}

export function subcategoryKey(category: string, subcategory: string): string {
  return `${category}/${subcategory}`;
}

interface CategoryLookup {
  category: CategoryNode;
  children: Map<string, CategoryNode>;
  other: CategoryNode | undefined;
}

// Built once per category tree, not once per article: placing 100,000
// articles must not rebuild the same maps 100,000 times.
const lookups = new WeakMap<CategoryNode[], Map<string, CategoryLookup>>();
const camelCache = new Map<string, string>();

function lookupFor(categories: CategoryNode[]): Map<string, CategoryLookup> {
  let lookup = lookups.get(categories);
  if (!lookup) {
    lookup = new Map(
      categories.map((category) => {
        const children = new Map(category.children.map((c) => [c.key, c]));
        return [category.key, { category, children, other: children.get(OTHER) ?? category.children[category.children.length - 1] }];
      }),
    );
    lookups.set(categories, lookup);
  }
  return lookup;
}

function camel(name: string): string {
  let key = camelCache.get(name);
  if (key === undefined) {
    key = toCamelCase(name);
    if (camelCache.size < 10_000) camelCache.set(name, key);
  }
  return key;
}

/** Whether placeArticle() files the article anywhere, without making its placements. */
export function isPlaceable(article: Pick<Article, 'entities'>, categories: CategoryNode[]): boolean {
  const lookup = lookupFor(categories);
  return article.entities.some((entity) => lookup.get(camel(entity.category))?.other !== undefined);
}

/** Resolves an article's entities against the configured categories. */
export function placeArticle(article: Pick<Article, 'entities'>, categories: CategoryNode[]): Placement[] {
  const lookup = lookupFor(categories);
  const placements: Placement[] = [];
  for (const entity of article.entities) {
    const found = lookup.get(camel(entity.category));
    if (!found?.other) continue;
    const subs = entity.subcategories?.length ? entity.subcategories : [{ subcategory: OTHER, subsubcategories: [] }];
    for (const sub of subs) {
      const known = found.children.get(camel(sub.subcategory));
      const placement: Placement = { category: found.category, subcategory: known ?? found.other, subsubcategories: sub.subsubcategories ?? [] };
      if (!known && camel(sub.subcategory) !== OTHER) placement.unknownSubcategory = sub.subcategory;
      placements.push(placement);
    }
  }
  return placements;
}

/** Builds the index; `articles` must be sorted newest first for the lists to be. */
export function buildCategoryIndex(articles: Article[], categories: CategoryNode[]): CategoryIndex {
  // Articles read from the article cache share one entity list per way of being filed (articleCache.ts), and so
  // their placements and the lists they go in: worked out once per entity list, not once per article. Placements
  // are only ever read.
  const placedLists = new Map<Article['entities'], { placements: Placement[]; subcategories: string[][]; categories: string[][] }>();
  const none: readonly Placement[] = [];
  const noLists = { subcategories: [], categories: [] };
  let entries: IndexEntry[] | undefined;
  const index: CategoryIndex = {
    get entries() {
      return (entries ??= indexEntries(articles, index));
    },
    byCategory: new Map(),
    bySubcategory: new Map(),
    placementsOf: (article) => placedLists.get(article.entities)?.placements ?? none,
    listsOf: (article) => placedLists.get(article.entities) ?? noLists,
  };
  for (const category of categories) {
    index.byCategory.set(category.key, []);
    for (const child of category.children) index.bySubcategory.set(subcategoryKey(category.key, child.key), []);
  }
  for (const article of articles) {
    let filed = placedLists.get(article.entities);
    if (!filed) {
      const placements = placeArticle(article, categories);
      const subcategories = placements.map(({ category, subcategory }) => index.bySubcategory.get(subcategoryKey(category.key, subcategory.key))!);
      const categoryLists = placements.map(({ category }) => index.byCategory.get(category.key)!);
      placedLists.set(article.entities, (filed = { placements, subcategories, categories: categoryLists }));
    }
    // Lists are independent: the order they are filled in does not matter, and pushOnce keeps an article filed
    // twice in one list (two subcategories of a category) there once.
    for (const list of filed.categories) pushOnce(list, article.id);
    for (const list of filed.subcategories) pushOnce(list, article.id);
  }
  return index;
}

function indexEntries(articles: Article[], index: Pick<CategoryIndex, 'placementsOf'>): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const article of articles) {
    for (const { category, subcategory, subsubcategories } of index.placementsOf(article)) {
      const subs = subsubcategories.length ? subsubcategories : [null];
      for (const subsubcategory of subs) entries.push({ category: category.key, subcategory: subcategory.key, subsubcategory, articleId: article.id });
    }
  }
  return entries;
}

/** Articles are filed one at a time, so a repeat can only be the last element. */
function pushOnce(list: string[], id: string): void {
  if (list[list.length - 1] !== id) list.push(id);
}

/**
 * A configured category or subcategory among `nodes`, found by a name as an operator or the generation input writes
 * it: its key in any case shape ("betting-strategies", "bettingStrategies") or its slug.
 */
export function findNode(nodes: CategoryNode[], wanted: string): CategoryNode | undefined {
  const key = toCamelCase(wanted);
  return nodes.find((n) => n.key === wanted || n.slug === wanted || n.key === key);
}
