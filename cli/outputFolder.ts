/**
 * Where a build may write (`--out` of felt build, felt dev and felt preview).
 * A build makes its output folder a link into `<out>.releases/`: a plain
 * folder found there is taken for a site an older felt built, moved in as the
 * first release, and removed by a later build (site/build/output.ts). So a
 * folder felt did not build (files, and no `.felt/` of felt's bookkeeping),
 * and the content folder or one that holds it, are refused before anything
 * moves: `felt build --out content` or `--out .` used to move the folder into
 * the releases and delete it on the next build. So is a folder inside another
 * site's release (`--out dist/ru_RU` beside a `dist` felt built).
 */
import { existsSync, realpathSync } from 'node:fs';
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
  const site = siteHolding(path.dirname(realOut));
  if (site) {
    throw new FeltError('BAD_PATH', `${flag} names a folder inside a site felt built (${displayPath(site)}): the next build of that site would drop it`, {
      file: out,
      hint: `build each site into a folder of its own beside the other, e.g. --out ${path.basename(out) === 'dist' ? 'dist-2' : `dist-${path.basename(out)}`}`,
    });
  }
  refuseForeignFolder(out, flag);
}

/**
 * The release of a site felt built (a folder of `<out>.releases/` with felt's `.felt/` bookkeeping) that holds
 * `folder` or is it, if any. A build into it (`--out dist/ru_RU` while dist/ links to a release) would write inside
 * another site's release: the next build of that site makes its release from another folder, and the nested site
 * is gone from what is served and deployed, then back, build after build.
 */
function siteHolding(folder: string): string | undefined {
  for (let at = folder; path.dirname(at) !== at; at = path.dirname(at)) {
    if (path.basename(path.dirname(at)).endsWith('.releases') && existsSync(path.join(at, '.felt'))) return at;
  }
  return undefined;
}
