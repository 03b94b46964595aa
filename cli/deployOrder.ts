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
 * deleted never outlives what it links to. Among the pages deleted, one
 * that links to another goes before it. Pages that link to each other in a
 * circle (two neighbouring articles, each in the other's related list) go
 * together, and one of them links to the other, gone, until its own
 * deletion: only a stale address reaches it then.
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

/**
 * The objects `name` refers to among `has`: links and assets in pages,
 * scripts and styles, the site's absolute URLs in sitemaps and feeds, a
 * page's page data, and every search shard for the search manifest.
 */
export function referencesOf(name: string, text: string, siteUrl: string, has: (name: string) => boolean, all: Iterable<string>): Set<string> {
  const found = new Set<string>();
  const add = (target: string | undefined) => {
    if (target && target !== name) found.add(target);
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

/**
 * Deletion rounds, referrers first: pages and indexes, then page data and JSON, then everything else.
 * With `references` (the names an object links to), the pages and indexes are split further: one that
 * links to another goes in an earlier round, and those that link to each other in a circle share one.
 * A run of deleted neighbours that each link to the next is then deleted one at a time.
 */
export function deletionRounds(names: string[], references?: (name: string) => Iterable<string>): string[][] {
  const rank = (name: string) => (/\.(?:html|xml)$/.test(name) ? 0 : path.posix.extname(name) === '.json' ? 1 : 2);
  const ranked: string[][] = [[], [], []];
  for (const name of names) ranked[rank(name)]!.push(name);
  const [pages, data, rest] = ranked as [string[], string[], string[]];
  return [...(references ? pageRounds(pages, references) : [pages]), data, rest].filter((round) => round.length);
}

/**
 * The pages in rounds by their links among themselves: each page's round is after those of the pages
 * that link to it, the pages of a circle (a strongly connected component) in one round.
 */
function pageRounds(pages: string[], references: (name: string) => Iterable<string>): string[][] {
  const set = new Set(pages);
  const edges = new Map<string, string[]>();
  for (const name of pages)
    edges.set(
      name,
      [...new Set(references(name))].filter((target) => target !== name && set.has(target)),
    );
  // Tarjan's components, without recursion (a run of thousands of deleted articles must not overflow the stack);
  // they come out each after every component it links to.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  const components: string[][] = [];
  for (const root of pages) {
    if (index.has(root)) continue;
    const frames: { name: string; next: number }[] = [{ name: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const targets = edges.get(frame.name)!;
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, index.size);
          low.set(target, index.get(target)!);
          stack.push(target);
          onStack.add(target);
          frames.push({ name: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.name, Math.min(low.get(frame.name)!, index.get(target)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(frame.name)!));
      if (low.get(frame.name) !== index.get(frame.name)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.set(member, components.length);
        members.push(member);
      } while (member !== frame.name);
      components.push(members);
    }
  }
  // Referrers first: walk the components from the last found (linked to by none found after it), each
  // pushing the components it links to a round later.
  const round = new Array<number>(components.length).fill(0);
  for (let c = components.length - 1; c >= 0; c--)
    for (const name of components[c]!)
      for (const target of edges.get(name)!) {
        const t = component.get(target)!;
        if (t !== c) round[t] = Math.max(round[t]!, round[c]! + 1);
      }
  // Every round made before any is filled: a first page in a late round would leave a sparse array, slow to fill.
  const rounds: string[][] = Array.from({ length: round.reduce((most, r) => Math.max(most, r), 0) + 1 }, () => []);
  for (const name of pages) rounds[round[component.get(name)!]!]!.push(name);
  return rounds;
}
