/**
 * The plan of a generation run: which (category, subcategory) each article
 * slot belongs to, and the run id that lets a rerun find the slots already
 * done.
 *
 * Slots go where the locale has least (issue 17): every named subcategory
 * of the chosen categories (and each category's "other", last) is a target,
 * and each slot takes the target with the fewest articles, counting those
 * already planned, ties going to the category with the fewest. Three a night
 * therefore land in three categories and in named subcategories, and the next
 * night fills the next ones. The counts leave out this run's own articles,
 * so a rerun (or a run with a larger --count) plans the same first slots.
 *
 * The run id is the night's date (with the --category/--subcategory filter),
 * or --run-id: a rerun after midnight, or with another --count, finishes the
 * same run instead of starting a new one.
 */
import { FeltError } from '../../shared/errors.ts';
import type { CategoryNode, ContentLocale } from '../../shared/types.ts';
import { OTHER, findNode } from '../../site/model/categoryIndex.ts';

export interface Target {
  category: CategoryNode;
  subcategory: CategoryNode;
}

export interface Slot {
  index: number;
  target: Target;
}

export interface Plan {
  runId: string;
  locale: ContentLocale;
  date: string;
  targets: Target[];
  slots: Slot[];
}

export interface PlanRequest {
  locale: ContentLocale;
  category?: string;
  subcategory?: string;
  count: number;
  /** The article date; with no --run-id, the run id too. */
  date: string;
  runId?: string;
}

/** Articles per "category/subcategory" key, as Registry.coverage counts them. */
export type Coverage = ReadonlyMap<string, number>;

export const targetKey = (t: Target): string => `${t.category.key}/${t.subcategory.key}`;

/** The run's targets and id, which do not depend on what exists. */
export function planIdentity(categories: CategoryNode[], request: PlanRequest): { runId: string; targets: Target[] } {
  if (!Number.isInteger(request.count) || request.count < 1) {
    throw new FeltError('BAD_OPTION', `--count must be a whole number of at least 1, not "${request.count}"`);
  }
  const targets = resolveTargets(categories, request.category, request.subcategory);
  const filter = [request.category && targets[0]!.category.key, request.subcategory && targets[0]!.subcategory.key].filter(Boolean);
  const runId = request.runId ?? [request.date, ...filter].join('-');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(runId)) throw new FeltError('BAD_OPTION', `--run-id must be letters, digits, "-" or "_", not "${runId}"`);
  return { runId, targets };
}

/**
 * The counts as the site files the articles: one whose subcategory its category does not have ("live poker
 * etiquette") is in the category's "other" (categoryIndex.ts). Counted under its own name, it was in no row of the
 * coverage table (40 of the bundled 44 en_US articles were) and no target of the plan, which then took a category's
 * "other" for empty and filled it first.
 */
export function filedCoverage(categories: CategoryNode[], coverage: Coverage): Map<string, number> {
  const rows = new Set(categories.flatMap((category) => category.children.map((child) => `${category.key}/${child.key}`)));
  const filed = new Map<string, number>();
  for (const [key, count] of coverage) {
    const row = rows.has(key) ? key : `${key.slice(0, key.indexOf('/'))}/${OTHER}`;
    filed.set(row, (filed.get(row) ?? 0) + count);
  }
  return filed;
}

export function makePlan(categories: CategoryNode[], request: PlanRequest, coverage: Coverage = new Map()): Plan {
  const { runId, targets } = planIdentity(categories, request);
  const filed = filedCoverage(categories, coverage);
  const perTarget = new Map(targets.map((t) => [targetKey(t), filed.get(targetKey(t)) ?? 0]));
  const perCategory = new Map<string, number>();
  for (const t of targets) perCategory.set(t.category.key, (perCategory.get(t.category.key) ?? 0) + perTarget.get(targetKey(t))!);
  const slots: Slot[] = [];
  for (let index = 0; index < request.count; index++) {
    let best = targets[0]!;
    for (const t of targets) {
      const [a, b] = [perTarget.get(targetKey(t))!, perTarget.get(targetKey(best))!];
      if (a < b || (a === b && perCategory.get(t.category.key)! < perCategory.get(best.category.key)!)) best = t;
    }
    slots.push({ index, target: best });
    perTarget.set(targetKey(best), perTarget.get(targetKey(best))! + 1);
    perCategory.set(best.category.key, perCategory.get(best.category.key)! + 1);
  }
  return { runId, locale: request.locale, date: request.date, targets, slots };
}

/** A plan whose slots were fixed earlier (a submitted batch records them). */
export function planWithSlots(categories: CategoryNode[], request: PlanRequest, slots: { slot: number; category: string; subcategory: string }[]): Plan {
  const { runId, targets } = planIdentity(categories, request);
  const byKey = new Map(targets.map((t) => [targetKey(t), t]));
  const planned: Slot[] = [];
  for (const s of slots) {
    const target = byKey.get(`${s.category}/${s.subcategory}`);
    if (target) planned[s.slot] = { index: s.slot, target };
  }
  return { runId, locale: request.locale, date: request.date, targets, slots: planned };
}

function resolveTargets(categories: CategoryNode[], categoryKey?: string, subcategoryKey?: string): Target[] {
  const chosen = categoryKey ? [requireNode(categories, categoryKey, 'category', categories)] : categories;
  if (subcategoryKey) {
    const found = chosen.flatMap((category) => {
      const subcategory = findNode(category.children, subcategoryKey);
      return subcategory ? [{ category, subcategory }] : [];
    });
    if (found.length === 0) {
      const known = chosen.flatMap((c) => c.children.map((s) => s.key));
      throw new FeltError('BAD_OPTION', `--subcategory "${subcategoryKey}" is not a subcategory of ${categoryKey ? `"${categoryKey}"` : 'any category'}`, {
        hint: `use one of: ${[...new Set(known)].join(', ')}`,
      });
    }
    if (found.length > 1) {
      throw new FeltError('BAD_OPTION', `--subcategory "${subcategoryKey}" exists in ${found.map((f) => f.category.key).join(', ')}`, {
        hint: 'add --category to say which one',
      });
    }
    return found;
  }
  return chosen.flatMap((category) => {
    const other = category.children.find((c) => c.key === OTHER);
    if (!other)
      throw new FeltError('CATEGORY_WITHOUT_OTHER', `category "${category.key}" has no "other" child`, {
        file: 'content/categories.json',
        field: `${category.key}.children`,
      });
    // Named subcategories first: "other" is the catch-all, filled when the named ones are even.
    return [...category.children.filter((c) => c.key !== OTHER), other].map((subcategory) => ({ category, subcategory }));
  });
}

function requireNode(nodes: CategoryNode[], wanted: string, what: string, all: CategoryNode[]): CategoryNode {
  const node = findNode(nodes, wanted);
  if (!node)
    throw new FeltError('BAD_OPTION', `--${what} "${wanted}" is not a configured ${what}`, {
      hint: `use a key or slug from content/categories.json: ${all.map((c) => c.key).join(', ')}`,
    });
  return node;
}

/** Today in UTC, as an ISO date. */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
