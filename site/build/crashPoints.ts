/**
 * Fault injection for the crash test (tests/security/crash.test.ts, issue
 * 14): with FELT_CRASH_AT=<point> in its environment, a build kills itself
 * with SIGKILL at that point, as a power cut or `kill -9` there would, so
 * every step between two safe states is tried, not only the ones a random
 * kill happens to hit. Without the variable a point costs one comparison.
 */
export const CRASH_POINTS = [
  /** The layout is ready and the staging folder made; nothing rendered. */
  'prepared',
  /** Every page is rendered into staging, and the search index made beside them; feeds and sitemaps are not. */
  'pages-written',
  /** Incremental: the spare release renamed to the new one and its manifest removed. */
  'release-opened',
  /** Incremental: half of the rendered files moved into the new release. */
  'release-half-moved',
  /** Incremental: every file moved or linked in, the pages that are gone not yet deleted. */
  'release-linked',
  /** The new release is complete (its manifest in place), not yet served. */
  'release-complete',
  /** The new link is made beside outDir, not yet renamed over it. */
  'link-made',
  /** outDir points at the new release; the release before the previous one is not yet removed. */
  'flipped',
] as const;

/** Only the first build over a plain outDir (an older felt's) passes these; 'link-made' comes next. */
export const MIGRATION_CRASH_POINTS = [
  /** The plain folder moved into the releases: no outDir until the link is renamed in. */
  'migrated',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number] | (typeof MIGRATION_CRASH_POINTS)[number];

const wanted = process.env.FELT_CRASH_AT;
/**
 * FELT_STOP_AT=<point> stops the build there (SIGSTOP) instead: the fault
 * test (tests/security/swapFaults.test.ts) fills the disk, remounts it
 * read-only or removes a release by hand, then lets it go on (SIGCONT), so a
 * real fault of the machine meets the build at that exact moment.
 */
const stopAt = process.env.FELT_STOP_AT;

export function crashPoint(point: CrashPoint): void {
  if (wanted === point) process.kill(process.pid, 'SIGKILL');
  if (stopAt === point) process.kill(process.pid, 'SIGSTOP');
}
