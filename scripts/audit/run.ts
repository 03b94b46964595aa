/**
 * `npm run audit`: builds the bundled content, serves it on 127.0.0.1 and
 * audits the eight page kinds with Lighthouse (mobile) and axe-core (375 and
 * 1280 px). Prints a table of page × the four Lighthouse scores and axe
 * violations, then what cost points; exit code 1 when a target is missed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildSite } from '../../site/build/build.ts';
import { startServer } from '../../site/serve/server.ts';
import { FELT_ROOT } from '../../shared/paths.ts';
import { describeViolations, runAxe } from './axe.ts';
import { CATEGORIES, CHROMIUM, CHROMIUM_FLAGS, startLighthouse, type Category } from './lighthouse.ts';
import { auditPages } from './pages.ts';

const CONTENT = path.join(FELT_ROOT, 'content');
const WIDTHS = [375, 1280];

export interface PageAudit {
  kind: string;
  path: string;
  lighthousePath?: string;
  scores: Record<Category, number>;
  losses: string[];
  axe: string[];
}

export async function runAudit(log: (line: string) => void = () => {}, only: string[] = []): Promise<PageAudit[]> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'felt-audit-'));
  const dist = path.join(work, 'dist');
  log('building the bundled content…');
  await buildSite({ contentDir: CONTENT, outDir: dist });
  const server = await startServer({ root: dist, port: 0 });
  const results: PageAudit[] = [];
  try {
    const pages = (await auditPages(dist)).filter((p) => only.length === 0 || only.includes(p.kind));
    const lighthouse = await startLighthouse();
    try {
      for (const page of pages) {
        const target = page.lighthousePath ?? page.path;
        log(`Lighthouse ${target}`);
        const { scores, losses } = await lighthouse.run(server.url + target);
        results.push({ ...page, scores, losses, axe: [] });
      }
    } finally {
      await lighthouse.close();
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    try {
      for (const result of results) {
        log(`axe ${result.path}`);
        for (const width of WIDTHS) {
          const page = await browser.newPage({ viewport: { width, height: 900 } });
          await page.goto(server.url + result.path, { waitUntil: 'networkidle' });
          result.axe.push(...describeViolations(await runAxe(page)).map((v) => `${width}px ${v}`));
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
  return results;
}

const HEADINGS: Record<Category, string> = { performance: 'Performance', accessibility: 'Accessibility', 'best-practices': 'Best practices', seo: 'SEO' };

/** A markdown table, as the README shows it. */
export function auditTable(results: PageAudit[]): string {
  const rows = [
    ['Page', 'Path', ...CATEGORIES.map((c) => HEADINGS[c]), 'axe violations'],
    ...results.map((r) => [
      r.kind,
      `\`${r.path}\`` + (r.lighthousePath ? ` (Lighthouse: \`${r.lighthousePath}\`)` : ''),
      ...CATEGORIES.map((c) => String(r.scores[c])),
      String(r.axe.length),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

export function auditDetails(results: PageAudit[]): string[] {
  return results.flatMap((r) => [...r.losses, ...r.axe.map((v) => `axe: ${v}`)].map((line) => `${r.kind} ${r.path}: ${line}`));
}
