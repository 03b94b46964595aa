/**
 * Finding a configured category or subcategory by a name as the generation
 * input writes it: its key in any case shape ("betting-strategies",
 * "bettingStrategies") or its slug. (SPEC section 3's category-type helper,
 * which lived here, had no caller: plans read the category tree directly.)
 */
import type { CategoryNode } from '../../shared/types.ts';
import { toCamelCase } from '../../shared/names.ts';

/** Finds a node among `nodes` by key (any case shape) or slug. */
export function findNode(nodes: CategoryNode[], wanted: string): CategoryNode | undefined {
  const key = toCamelCase(wanted);
  return nodes.find((n) => n.key === wanted || n.slug === wanted || n.key === key);
}
