/**
 * Is a site whole? The check issue 14 asks of whatever is served or stored
 * after a kill: every HTML page is a whole document, every JSON file
 * parses, every internal link and asset (in pages, sitemaps, feeds and the
 * search index manifest) names a file the site has, and every page has its
 * page data. Works on a folder or on a bucket's objects: both are a map of
 * names (no leading slash) to bytes.
 *
 * Mid-deploy, `going` names the objects the deploy removes (the bucket's
 * that the new dist/ does not have). A page or sitemap among them may link
 * to another going page or sitemap already deleted: a deploy deletes its
 * pages in one concurrent round (cli/deployOrder.ts), and two neighbouring
 * articles deleted the same night link one or both ways; only a stale
 * address reaches such a page, and it goes in the same round (no order
 * would help the pair that link each other). That link, and only that, is
 * let through: a going page's assets and page data must still be there,
 * and a page that stays must link only to objects that exist.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

export type SiteFiles = ReadonlyMap<string, Buffer>;

/** A folder's files (dot files, the build's bookkeeping, left out), links followed like a reader would. */
export async function siteFilesOf(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const walk = async (folder: string, prefix: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else files.set(`${prefix}${entry.name}`, await readFile(full));
    }
  };
  await walk(dir, '');
  return files;
}

/** The objects a static host may answer a path with: the file, or the folder's index.html. */
function candidates(urlPath: string): string[] {
  const clean = decodeURIComponent(urlPath.split('#')[0]!.split('?')[0]!).replace(/^\//, '');
  return clean === '' || clean.endsWith('/') ? [`${clean}index.html`] : [clean, `${clean}/index.html`];
}

const INTERNAL = /(?:href|src)="(\/(?!\/)[^"]*)"/g;
/** Pages and indexes: what a deploy deletes first (cli/deployOrder.ts). */
const PAGE = /\.(?:html|xml)$/;

/** Every problem found, one line each; an empty list means the site is whole. */
export function linkProblems(files: SiteFiles, siteUrl: string, going: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  // Whether a link in `from` finds its object, or is one going page's to another (see above).
  const resolves = (from: string, urlPath: string) => {
    const names = candidates(urlPath);
    return names.some((name) => files.has(name)) || (going.has(from) && names.some((name) => PAGE.test(name) && going.has(name)));
  };
  const absolute = new RegExp(`(?:<loc>|<link>|href=")${siteUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/[^<"]*)`, 'g');
  for (const [name, bytes] of files) {
    const text = name.endsWith('.html') || name.endsWith('.json') || name.endsWith('.xml') ? bytes.toString('utf8') : undefined;
    if (text === undefined) continue;
    if (name.endsWith('.html')) {
      if (!text.trimEnd().endsWith('</html>')) problems.push(`${name}: not a whole document`);
      for (const match of text.matchAll(INTERNAL)) if (!resolves(name, match[1]!)) problems.push(`${name}: links to ${match[1]}, which is missing`);
      const page = name === 'index.html' ? '' : name.endsWith('/index.html') ? name.slice(0, -'/index.html'.length) : undefined;
      if (page !== undefined && !files.has(`page-data/${page ? `${page}/` : 'index/'}page-data.json`)) problems.push(`${name}: its page data is missing`);
    }
    if (name.endsWith('.json')) {
      try {
        JSON.parse(text);
      } catch {
        problems.push(`${name}: does not parse`);
      }
    }
    if (name.endsWith('.xml'))
      for (const match of text.matchAll(absolute)) if (!resolves(name, match[1]!)) problems.push(`${name}: lists ${match[1]}, which is missing`);
    if (name === 'search/manifest.json' && !problems.includes(`${name}: does not parse`)) {
      const manifest = JSON.parse(text) as { id: string; r?: string[]; d?: { id: string } };
      for (const id of [manifest.id, ...(manifest.d ? [manifest.d.id] : []), ...(manifest.r ?? [])])
        if (![...files.keys()].some((file) => file.startsWith(`search/${id}/`))) problems.push(`${name}: names search/${id}/, which is missing`);
    }
  }
  return problems;
}
