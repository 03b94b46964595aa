/**
 * Where a build may write (`--out` of felt build, felt dev and felt preview).
 * A build makes its output folder a link into `<out>.releases/`: a plain
 * folder found there is taken for a site an older felt built, moved in as the
 * first release, and removed by a later build (site/build/output.ts). So a
 * folder felt did not build (files, and no `.felt/` of felt's bookkeeping),
 * and the content folder or one that holds it, are refused before anything
 * moves: `felt build --out content` or `--out .` used to move the folder into
 * the releases and delete it on the next build.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { FeltError } from '../shared/errors.ts';
import { isInside } from '../shared/insideFolder.ts';
import { displayPath } from '../shared/paths.ts';
import { refuseForeignFolder } from '../site/build/output.ts';

/** A path with the links of its existing part resolved; as given when nothing of it exists. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Throws BAD_PATH when a build into `outDir` would move or remove what felt did not write: the content folder or
 * one holding it, or a folder felt did not build (refuseForeignFolder, which the build asks again).
 */
export function checkOutputFolder(outDir: string, contentDir: string, flag = '--out'): void {
  const out = path.resolve(outDir);
  // The folder itself is a link felt made into its releases: its parent's links are resolved, not its own.
  const realOut = path.join(realPath(path.dirname(out)), path.basename(out));
  if (isInside(realPath(contentDir), realOut, { itself: true })) {
    throw new FeltError('BAD_PATH', `${flag} names the content folder or one that holds it (${displayPath(path.resolve(contentDir))})`, {
      file: out,
      hint: `a build replaces its output folder whole; choose another folder with ${flag}, e.g. dist`,
    });
  }
  refuseForeignFolder(out, flag);
}
