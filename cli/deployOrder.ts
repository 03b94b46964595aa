/**
 * The order of a deploy (issue 14): at every moment the bucket's pages link
 * only to objects that exist. An upload waits for the uploads of the new
 * objects it names (a page for the articles, pages and hashed assets it
 * links to and for its own page data; a sitemap or feed for the pages it
 * lists; the search manifest for its shards), so hashed assets and new
 * articles go first and listings, the home page, sitemaps, feeds and the
 * search manifest after what they name. An object the bucket already has
 * needs no waiting: its older version answers meanwhile.
 *
 * Deletions come after every upload, referrers first: pages, sitemaps and
 * feeds, then page data and other JSON, then assets, so a page about to be
 * deleted never outlives what it links to.
 */
import path from 'node:path';

/** Text files whose references matter; everything else (images, fonts) names nothing. */
const TEXT = /\.(?:html|json|xml|js|mjs|css|webmanifest|txt)$/;
/** A root-relative path in quotes, parentheses (CSS url()) or an attribute. */
const ROOT_RELATIVE = /["'(=](\/(?!\/)[^"'()\s<>\\]*)/g;

/** The object a path asks for on a static host: the object, or the folder's index.html. */
function objectFor(urlPath: string, has: (name: string) => boolean): string | undefined {
  let clean: string;
  try {
    clean = decodeURIComponent(urlPath.split('#')[0]!.split('?')[0]!).replace(/^\/+/, '');
  } catch {
    return undefined;
  }
  const candidates = clean === '' || clean.endsWith('/') ? [`${clean}index.html`] : [clean, `${clean}/index.html`];
  return candidates.find(has);
}

/** The page data a page's runtime loads: the page is not whole without it. */
function pageDataOf(name: string): string | undefined {
  if (name === 'index.html') return 'page-data/index/page-data.json';
  if (name.endsWith('/index.html')) return `page-data/${name.slice(0, -'/index.html'.length)}/page-data.json`;
  return undefined;
}

/** The page a page-data file belongs to, which its `path` field names: a name, not a link to wait for. */
function pageOfData(name: string): string | undefined {
  const match = /^page-data\/(.+)\/page-data\.json$/.exec(name);
  if (!match || match[1] === 'sq') return undefined;
  return match[1] === 'index' ? 'index.html' : `${match[1]}/index.html`;
}

/**
 * The objects `name` refers to among `has`: links and assets in pages,
 * scripts and styles, the site's absolute URLs in sitemaps and feeds, a
 * page's page data, and every search shard for the search manifest. Page
 * data does not refer to its own page (the page refers to it): it goes
 * first, and the page after it, never the other way round.
 */
export function referencesOf(name: string, text: string, siteUrl: string, has: (name: string) => boolean, all: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const own = pageOfData(name);
  const add = (target: string | undefined) => {
    if (target && target !== name && target !== own) found.add(target);
  };
  if (!TEXT.test(name)) return found;
  for (const match of text.matchAll(ROOT_RELATIVE)) add(objectFor(match[1]!, has));
  const site = siteUrl.replace(/\/+$/, '');
  if (site) {
    for (let at = text.indexOf(site); at !== -1; at = text.indexOf(site, at + site.length)) {
      const rest = /^\/[^"'<>\s]*/.exec(text.slice(at + site.length, at + site.length + 2048));
      if (rest) add(objectFor(rest[0], has));
    }
  }
  const data = pageDataOf(name);
  if (data && has(data)) add(data);
  if (name === 'search/manifest.json') for (const other of all) if (other.startsWith('search/') && has(other)) add(other);
  return found;
}

/**
 * For each upload, the uploads it must wait for: those of objects the
 * bucket does not have yet. A cycle among new objects (two new pages that
 * link to each other) cannot be ordered; its closing edge is dropped and
 * reported, so the deploy never waits forever.
 */
export function uploadDependencies(
  uploads: string[],
  isNew: (name: string) => boolean,
  references: (name: string) => Set<string>,
): { waitsFor: Map<string, string[]>; cycles: [string, string][] } {
  const pending = new Set(uploads);
  const edges = new Map<string, string[]>();
  for (const name of uploads)
    edges.set(
      name,
      [...references(name)].filter((target) => pending.has(target) && isNew(target)),
    );
  const waitsFor = new Map<string, string[]>();
  const cycles: [string, string][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  // Depth first, without recursion (a chain of thousands of new articles must not overflow the stack).
  for (const root of uploads) {
    if (state.has(root)) continue;
    const stack: { name: string; next: number }[] = [{ name: root, next: 0 }];
    state.set(root, 'visiting');
    waitsFor.set(root, []);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const targets = edges.get(top.name)!;
      if (top.next >= targets.length) {
        state.set(top.name, 'done');
        stack.pop();
        continue;
      }
      const target = targets[top.next++]!;
      const seen = state.get(target);
      if (seen === 'visiting') {
        cycles.push([top.name, target]);
        continue;
      }
      waitsFor.get(top.name)!.push(target);
      if (!seen) {
        state.set(target, 'visiting');
        waitsFor.set(target, []);
        stack.push({ name: target, next: 0 });
      }
    }
  }
  return { waitsFor, cycles };
}

/** Deletion rounds, referrers first: pages and indexes, then page data and JSON, then everything else. */
export function deletionRounds(names: string[]): string[][] {
  const rank = (name: string) => (/\.(?:html|xml)$/.test(name) ? 0 : path.posix.extname(name) === '.json' ? 1 : 2);
  const rounds: string[][] = [[], [], []];
  for (const name of names) rounds[rank(name)]!.push(name);
  return rounds.filter((round) => round.length);
}
