/**
 * Reading a built site while builds go on (issue 14). `dist` links to one
 * release (output.ts); a build reworks the spare release, the one before the
 * current, into its new one. A reader that resolved `dist` before two builds
 * flipped it would then read a release being reworked: so a reader (a
 * deploy for its whole run, `felt serve` for each request) holds a lease on
 * the release it reads, and a build neither reworks nor removes a leased
 * release (it makes its new one from scratch, by links, instead).
 *
 * A lease is an empty file in the releases folder,
 * `.lease-<pid>-<n>-<release>`: made before the reader starts and removed
 * when it ends. A lease whose process is gone (killed) is stale: ignored and
 * removed by the next build.
 *
 * And when `dist` is missing (a build killed while it moved an older felt's
 * plain dist/ into its first release, or removed by hand), readers read the
 * newest complete release, which is what the next build will link to.
 */
import { readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE } from './buildCache.ts';

const LEASE_MARK = '.lease-';
const LEASE_NAME = /^\.lease-(\d+)-\d+-(.+)$/;

/** The folder of releases next to outDir (output.ts has the same rule). */
const releasesOf = (outDir: string) => `${outDir}.releases`;

/** The folder a reader of outDir reads now: the release it links to, the newest complete one when it is missing, or outDir itself. */
export async function servedRoot(outDir: string): Promise<string> {
  const resolved = await realpath(outDir).catch(() => undefined);
  if (resolved) return resolved;
  const releases = releasesOf(outDir);
  const names = await readdir(releases).catch(() => [] as string[]);
  for (const name of names
    .filter((entry) => !entry.startsWith('.'))
    .sort()
    .reverse()) {
    const manifest = await stat(path.join(releases, name, MANIFEST_FILE)).catch(() => undefined);
    if (manifest?.isFile()) return realpath(path.join(releases, name)).catch(() => path.join(releases, name));
  }
  return outDir;
}

let leaseCount = 0;

/** Holds `root` when it is a release of outDir's; returns how to let it go (idempotent). Never fails the reader: a lease it cannot write (a read-only disk, where no build runs either) is skipped. */
function hold(outDir: string, root: string): () => void {
  const releases = releasesOf(outDir);
  let realReleases: string;
  try {
    realReleases = realpathSync(releases);
  } catch {
    return () => undefined;
  }
  if (path.dirname(root) !== realReleases) return () => undefined;
  const lease = path.join(releases, `${LEASE_MARK}${process.pid}-${++leaseCount}-${path.basename(root)}`);
  try {
    writeFileSync(lease, '');
  } catch {
    return () => undefined;
  }
  let held = true;
  return () => {
    if (held) rmSync(lease, { force: true });
    held = false;
  };
}

export interface Lease {
  /** The release (or folder) to read, whole, until `release()`. */
  root: string;
  release(): void;
}

/**
 * Leases the release outDir serves now. The lease is made, then outDir is
 * resolved again: when it still leads there, every build that could rework
 * that release starts after the lease exists (a build reworks only a release
 * that is no longer served), so it sees the lease.
 */
export async function leaseServedRelease(outDir: string): Promise<Lease> {
  for (;;) {
    const root = await servedRoot(outDir);
    const release = hold(outDir, root);
    if ((await servedRoot(outDir)) === root) return { root, release };
    release();
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What readers hold in `releases`: each leased release and its live lease
 * files, by path. A build keeps them all; stale leases are removed here.
 */
export function heldEntries(releases: string): Set<string> {
  const held = new Set<string>();
  for (const name of readdirSync(releases)) {
    const lease = LEASE_NAME.exec(name);
    if (!lease) continue;
    if (isAlive(Number(lease[1]))) {
      held.add(path.join(releases, name));
      held.add(path.join(releases, lease[2]!));
    } else rmSync(path.join(releases, name), { force: true });
  }
  return held;
}

/**
 * The leases of `felt serve`: each request holds the release it resolved
 * until its response ends; one lease file per release with requests in
 * flight, not one per request. An idle server holds nothing, so builds
 * keep reworking their spare release.
 */
export class RequestLeases {
  private readonly inUse = new Map<string, { requests: number; release: () => void }>();

  constructor(private readonly outDir: string) {}

  /** The folder this request reads, and the call that ends its hold (once). */
  async enter(): Promise<{ root: string; leave: () => void }> {
    let root = await servedRoot(this.outDir);
    let entry = this.inUse.get(root);
    if (!entry) {
      const lease = await leaseServedRelease(this.outDir);
      root = lease.root;
      entry = this.inUse.get(root);
      if (entry) lease.release();
      else this.inUse.set(root, (entry = { requests: 0, release: lease.release }));
    }
    entry.requests++;
    const held = entry;
    let left = false;
    return {
      root,
      leave: () => {
        if (left) return;
        left = true;
        if (--held.requests > 0) return;
        held.release();
        this.inUse.delete(root);
      },
    };
  }
}
