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
  /** The spare release (or a killed build's) renamed to the new one and its manifest removed; nothing written into it yet. */
  'release-opened',
  /** Every page is rendered (into staging, or into a release made from an older one) with every other file but the manifest. */
  'pages-written',
  /** Made from an older release: the files no longer in the site deleted from the new release, nothing linked into it yet. */
  'release-pruned',
  /** Incremental: every file written or linked in; the manifest not yet. */
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
