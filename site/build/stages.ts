/**
 * The stages of a build that touch the disk, as their errors name them: what
 * the machine refuses in one of them becomes a FeltError with the file and
 * the stage (shared/stageErrors.ts); anything else is a bug and stays one.
 */
import type { Stage } from '../../shared/stageErrors.ts';

/** Reading content/: every path in it is the operator's. */
export function loadingContent(contentDir: string): Stage {
  return { name: 'loading content', path: contentDir, namedPaths: true, pathHint: 'check the file, or name another content folder with --content' };
}

/** Recovering and staging next to --out: a path through a file, or a missing disk, is the flag's to fix. */
export function preparingOutput(outDir: string): Stage {
  return { name: 'preparing the output folder', path: outDir, namedPaths: true, pathHint: 'choose another folder with --out' };
}

/** Rendering and writing pages, assets and indexes into the staging folder, then putting them in place. */
export function writingSite(outDir: string): Stage {
  return { name: 'writing the site', path: outDir, pathHint: 'check who owns the output folder, or choose another with --out' };
}
