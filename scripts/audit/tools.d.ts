/**
 * The parts of Lighthouse and chrome-launcher the audit uses. Both are
 * installed on the audit's first run into scripts/tools/audit/, not with
 * felt's dependencies, so their own types are not there for `npm run typecheck`.
 */
declare module 'chrome-launcher' {
  export interface LaunchedChrome {
    port: number;
    kill(): void;
  }
  export function launch(options: { chromePath: string; chromeFlags: string[]; logLevel?: 'silent' | 'error' | 'info' | 'verbose' }): Promise<LaunchedChrome>;
}

declare module 'lighthouse' {
  interface AuditRef {
    id: string;
    weight: number;
  }
  interface Audit {
    title: string;
    score: number | null;
    displayValue?: string;
  }
  interface Result {
    categories: Record<string, { score: number | null; auditRefs: AuditRef[] } | undefined>;
    audits: Record<string, Audit | undefined>;
    runtimeError?: { message: string };
  }
  export default function lighthouse(
    url: string,
    flags: { port: number; output: 'json'; logLevel: 'error' | 'silent'; onlyCategories: string[]; formFactor: 'mobile' | 'desktop' },
  ): Promise<{ lhr: Result } | undefined>;
}
