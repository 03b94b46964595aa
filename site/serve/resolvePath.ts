/**
 * Request path → file inside the site folder, or a refusal. Request paths
 * are untrusted: they are decoded once, checked for NUL bytes, backslashes
 * and dot segments, and the final path must stay inside the root.
 */
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../../shared/insideFolder.ts';

export type Resolution = { ok: true; candidates: string[] } | { ok: false; status: 400 | 404 };

export function resolveRequestPath(root: string, rawUrl: string): Resolution {
  const pathname = rawUrl.split('?')[0]!.split('#')[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  // A dot segment after one decoding is either an attack or a client bug; a
  // second encoded layer (%252e) stays literal and simply matches no file.
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) return { ok: false, status: 400 };
  // Dot files are the build's own bookkeeping (.felt/manifest.json), never part of the site.
  if (decoded.split('/').some((segment) => segment.startsWith('.') && segment !== '.well-known')) return { ok: false, status: 404 };
  const target = path.resolve(root, '.' + decoded);
  if (!isInside(target, root, { itself: true })) return { ok: false, status: 400 };
  if (decoded.endsWith('/')) return { ok: true, candidates: [path.join(target, 'index.html')] };
  return { ok: true, candidates: path.extname(target) ? [target] : [path.join(target, 'index.html'), target] };
}

/**
 * The file at `file` (a path inside `root`) if it is a regular file whose real
 * path, links resolved, is inside the root's too: a symbolic link inside the
 * site must not lead out of it (issue 6), whether a request names it, or it is
 * the 404 page or a gone page every missing or retracted address is answered with.
 */
export async function fileInside(root: string, file: string): Promise<{ file: string; real: string; info: Stats } | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const [real, realRoot] = await Promise.all([realpath(file).catch(() => ''), realpath(root).catch(() => root)]);
  return isInside(real, realRoot) ? { file, real, info } : undefined;
}
