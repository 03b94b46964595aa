/**
 * "Is this path inside that folder", one home for every check of it: the site
 * server's request paths and links, the build's writes and clean-ups, the
 * content folder's links, `--out` against the content folder, and how a path
 * is shown. It compares names: both paths are absolute and normalised
 * (path.resolve's, path.join's or realpath's), links are not followed (a
 * caller that must not be led out by one compares real paths), and case
 * counts, as on Linux. A folder with a trailing separator ("/") is taken as it is.
 */
import path from 'node:path';

export interface InsideOptions {
  /** The folder itself counts as inside it (default: only what is below it). */
  itself?: boolean;
}

/** True when `target` is below `folder` (or is `folder`, with `itself`); `/srv/site-old` is not inside `/srv/site`. */
export function isInside(target: string, folder: string, { itself = false }: InsideOptions = {}): boolean {
  if (target === folder) return itself;
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  return target.length > prefix.length && target.startsWith(prefix);
}
