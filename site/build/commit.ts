/**
 * Applying an incremental build to the live output folder.
 *
 * A cold build is written to a staging folder and swapped in whole. An
 * incremental build stages only the files that changed; committing moves each
 * into place with one rename (so every file is always complete) and deletes
 * the pages that are gone. A journal written first makes the commit
 * restartable: if the process dies midway, the next build finishes it before
 * doing anything else, so the site never stays half-updated.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../shared/atomicWrite.ts';

export const JOURNAL_FILE = '.felt/commit.json';

export interface CommitPlan {
  staging: string;
  /** Files in staging to move into the output folder, relative paths. */
  written: string[];
  /** Files to delete from the output folder. */
  removed: string[];
}

export function commitIncremental(outDir: string, plan: CommitPlan): void {
  // Synchronous like the rest of the commit, and flushed: the journal must be on disk before the first file moves.
  writeFileAtomicSync(path.join(outDir, JOURNAL_FILE), JSON.stringify(plan));
  applyCommit(outDir, plan);
}

function applyCommit(outDir: string, plan: CommitPlan): void {
  const made = new Set<string>();
  for (const file of plan.written) {
    const target = path.join(outDir, file);
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    try {
      renameSync(path.join(plan.staging, file), target);
    } catch (error) {
      // Already moved by an earlier, interrupted commit of the same plan.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const emptied = new Set<string>();
  for (const file of plan.removed) {
    const target = path.join(outDir, file);
    try {
      unlinkSync(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    emptied.add(path.dirname(target));
  }
  // Deepest first, once per folder: a folder of many removed files costs one rmdir, not one per file.
  for (const folder of [...emptied].sort((a, b) => b.length - a.length)) removeEmptyFolders(outDir, folder);
  unlinkSync(path.join(outDir, JOURNAL_FILE));
  rmSync(plan.staging, { recursive: true, force: true });
}

/** A deleted article's folder goes too, up to (not including) the output folder. */
function removeEmptyFolders(root: string, folder: string): void {
  let current = folder;
  while (current.startsWith(root + path.sep)) {
    try {
      rmdirSync(current);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}

/**
 * Finishes a commit that an earlier build started and did not end. Returns
 * false when it cannot be finished (its staging folder is gone): the caller
 * must then rebuild everything.
 */
export function recoverCommit(outDir: string): boolean {
  let plan: CommitPlan;
  try {
    plan = JSON.parse(readFileSync(path.join(outDir, JOURNAL_FILE), 'utf8')) as CommitPlan;
  } catch {
    return true;
  }
  try {
    applyCommit(outDir, plan);
    return true;
  } catch {
    rmSync(path.join(outDir, JOURNAL_FILE), { force: true });
    return false;
  }
}
