/**
 * The plan of a generation run: which (category, subcategory) each article
 * slot belongs to, and the run id that lets a rerun of the same command find
 * the slots already done. Slots are spread round-robin over the targets.
 * With no --subcategory, each chosen category gets its articles under
 * "other", the default generation entity of SPEC section 3.
 */
import { createHash } from 'node:crypto';
import { FeltError } from '../../shared/errors.ts';
import type { CategoryNode, ContentLocale } from '../../shared/types.ts';
import { OTHER } from '../../site/model/categoryIndex.ts';
import { findNode } from './categoryTypes.ts';

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
  /** The article date and part of the run id: a new day is a new run. */
  date: string;
  runId?: string;
}

export function makePlan(categories: CategoryNode[], request: PlanRequest): Plan {
  if (!Number.isInteger(request.count) || request.count < 1) {
    throw new FeltError('BAD_OPTION', `--count must be a whole number of at least 1, not "${request.count}"`);
  }
  const targets = resolveTargets(categories, request.category, request.subcategory);
  const slots = Array.from({ length: request.count }, (_, index) => ({ index, target: targets[index % targets.length]! }));
  const identity = JSON.stringify([request.locale, request.date, request.count, targets.map((t) => `${t.category.key}/${t.subcategory.key}`)]);
  const runId = request.runId ?? createHash('sha256').update(identity).digest('hex').slice(0, 12);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(runId)) throw new FeltError('BAD_OPTION', `--run must be letters, digits, "-" or "_", not "${runId}"`);
  return { runId, locale: request.locale, date: request.date, targets, slots };
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
  return chosen.map((category) => {
    const other = category.children.find((c) => c.key === OTHER);
    if (!other)
      throw new FeltError('CATEGORY_WITHOUT_OTHER', `category "${category.key}" has no "other" child`, {
        file: 'content/categories.json',
        field: `${category.key}.children`,
      });
    return { category, subcategory: other };
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
