/**
 * The coverage table of `felt generate --dry-run` (issue 17): articles per
 * category × subcategory × content locale, and where this run's plan puts its
 * articles, so an operator sees what the site has least of before paying.
 */
import { CONTENT_LOCALES, type CategoryNode, type ContentLocale } from '../../shared/types.ts';
import { OTHER } from '../../site/model/categoryIndex.ts';
import { filedCoverage, type Coverage, type Plan } from './plan.ts';

export interface CoverageRow {
  category: string;
  subcategory: string;
  articles: Record<ContentLocale, number>;
  /** This run's articles here (in the run's locale). */
  planned: number;
}

export function coverageRows(categories: CategoryNode[], perLocale: ReadonlyMap<ContentLocale, Coverage>, plan: Plan): CoverageRow[] {
  const planned = new Map<string, number>();
  for (const slot of plan.slots) {
    const key = `${slot.target.category.key}/${slot.target.subcategory.key}`;
    planned.set(key, (planned.get(key) ?? 0) + 1);
  }
  const filed = new Map([...perLocale].map(([locale, coverage]) => [locale, filedCoverage(categories, coverage)]));
  return categories.flatMap((category) =>
    [...category.children.filter((c) => c.key !== OTHER), ...category.children.filter((c) => c.key === OTHER)].map((subcategory) => {
      const key = `${category.key}/${subcategory.key}`;
      const articles = Object.fromEntries(CONTENT_LOCALES.map((l) => [l, filed.get(l)?.get(key) ?? 0])) as Record<ContentLocale, number>;
      return { category: category.key, subcategory: subcategory.key, articles, planned: planned.get(key) ?? 0 };
    }),
  );
}

/** The table as aligned lines: one row per subcategory, a column per locale, "+n" where this run adds n. */
export function formatCoverage(rows: CoverageRow[], locale: ContentLocale): string[] {
  const header = ['category', 'subcategory', ...CONTENT_LOCALES, `this run (${locale})`];
  const body = rows.map((r) => [r.category, r.subcategory, ...CONTENT_LOCALES.map((l) => String(r.articles[l])), r.planned ? `+${r.planned}` : '']);
  const totals = [
    'total',
    '',
    ...CONTENT_LOCALES.map((l) => String(rows.reduce((n, r) => n + r.articles[l], 0))),
    `+${rows.reduce((n, r) => n + r.planned, 0)}`,
  ];
  const table = [header, ...body, totals];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) =>
    row
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
