/**
 * The category-type helper of SPEC section 3: for each configured category,
 * its subcategories as a list (two levels) or as a map from subcategory to
 * its sub-subcategories (three levels), and whether it has the catch-all
 * "other". Generation plans and prompts are built from it.
 */
import type { CategoryNode } from '../../shared/types.ts';
import { OTHER } from '../../site/model/categoryIndex.ts';
import { toCamelCase } from '../../shared/names.ts';

export interface CategoryType {
  key: string;
  slug: string;
  subcategories: string[] | Record<string, string[]>;
  other: boolean;
}

export function categoryType(category: CategoryNode): CategoryType {
  const deep = category.children.some((child) => child.children.length > 0);
  const subcategories = deep
    ? Object.fromEntries(category.children.map((child) => [child.key, child.children.map((leaf) => leaf.key)]))
    : category.children.map((child) => child.key);
  return { key: category.key, slug: category.slug, subcategories, other: category.children.some((c) => c.key === OTHER) };
}

export function categoryTypes(categories: CategoryNode[]): CategoryType[] {
  return categories.map(categoryType);
}

/** Finds a node among `nodes` by key (any case shape) or slug. */
export function findNode(nodes: CategoryNode[], wanted: string): CategoryNode | undefined {
  const key = toCamelCase(wanted);
  return nodes.find((n) => n.key === wanted || n.slug === wanted || n.key === key);
}
