/**
 * Lighthouse 12 on Debian's Chromium, launched by chrome-launcher, at its
 * default (mobile) form factor: the four category scores of one URL and the
 * audits that cost points, so a score below 100 says why.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// The same Chromium, with the same flags, as every browser test.
import { CHROMIUM, CHROMIUM_ARGS as CHROMIUM_FLAGS } from '../../tests/support/chromium.ts';

export { CHROMIUM, CHROMIUM_FLAGS };

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseScores {
  scores: Record<Category, number>;
  /** Audits that lowered a score: "category: title (score)". */
  losses: string[];
}

export interface LighthouseRunner {
  run(url: string): Promise<LighthouseScores>;
  close(): Promise<void>;
}

export async function startLighthouse(): Promise<LighthouseRunner> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  return {
    async run(url) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], formFactor: 'mobile' });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
      // FELT_AUDIT_REPORTS=<folder> keeps each full report, to see what a score is made of.
      if (process.env.FELT_AUDIT_REPORTS) {
        mkdirSync(process.env.FELT_AUDIT_REPORTS, { recursive: true });
        writeFileSync(path.join(process.env.FELT_AUDIT_REPORTS, `${new URL(url).pathname.replace(/\W+/g, '_') || 'home'}.json`), JSON.stringify(lhr));
      }
      const scores = {} as Record<Category, number>;
      const losses: string[] = [];
      for (const category of CATEGORIES) {
        const entry = lhr.categories[category];
        scores[category] = Math.round((entry?.score ?? 0) * 100);
        for (const ref of entry?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
          losses.push(`${category}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}, score ${Math.round(audit.score * 100)}`);
        }
      }
      return { scores, losses };
    },
    close: async () => {
      chrome.kill();
    },
  };
}
