/**
 * Two owners of one output file: a category slug "404" would write the 404
 * page's page data, a subcategory "articles/x" an article's page. Found from
 * the paths alone (outputs.ts), in one pass with a Map, before anything is
 * rendered; like Eleventy's duplicate-permalink check, but every collision
 * is reported at once. `felt build` refuses them before it writes anything,
 * and `felt check` reports the same problems for every content locale.
 */
import type { Problem } from '../../shared/errors.ts';
import { CONTENT_LOCALES, UI_LOCALES, type SiteContent, type UiLocale } from '../../shared/types.ts';
import type { Messages } from '../i18n/translator.ts';
import { buildSiteModel, type SiteModel } from '../model/siteModel.ts';
import { claimOutputs, forbiddenFolder, type FolderClaim, type Writer } from './outputs.ts';
import type { Owner } from './routeParts.ts';

export interface Collision {
  /** The files in dispute, in the order they were claimed. */
  files: string[];
  /** Every owner that writes them, in the order they claimed them. */
  owners: Owner[];
  /** The build's folder they were written into, when that is the dispute. */
  folder?: FolderClaim;
}

/**
 * Where an article's files go (pageFiles.ts): articles/{slug}/index.html and page-data/articles/{slug}/page-data.json.
 * Slugs are unique within a locale (crossCheck.ts stops the build otherwise), so only a file of another kind under
 * these folders can dispute an article's.
 */
const ARTICLE_FOLDERS = ['articles/', 'page-data/articles/'];

/**
 * The collisions of one site (one content locale): one pass over the paths of its files with a Map. The other pages'
 * files are claimed first; the articles' are claimed only if one of those lies where an article's could: at 100,000
 * articles that spares a rebuild 200,000 claims that cannot collide.
 */
export function findCollisions(model: SiteModel): Collision[] {
  const others = claimFiles(model, false);
  return others.underArticles ? collisionsOf(claimFiles(model, true)) : collisionsOf(others);
}

interface Claims {
  /** One writer per file as a rule; a list only where there is a dispute. */
  claimed: Map<string, Writer | Writer[]>;
  disputed: Map<string, FolderClaim | undefined>;
  /** Whether a file was claimed where an article's file could be. */
  underArticles: boolean;
}

function claimFiles(model: SiteModel, articles: boolean): Claims {
  const claimed = new Map<string, Writer | Writer[]>();
  const disputed = new Map<string, FolderClaim | undefined>();
  let underArticles = false;
  claimOutputs(
    model,
    (file, role, writer) => {
      if (!articles && ARTICLE_FOLDERS.some((folder) => file.startsWith(folder))) underArticles = true;
      const held = claimed.get(file);
      if (held === undefined) {
        const folder = forbiddenFolder(file, role);
        claimed.set(file, folder ? [writer] : writer);
        if (folder) disputed.set(file, folder);
      } else {
        claimed.set(file, Array.isArray(held) ? [...held, writer] : [held, writer]);
        if (!disputed.has(file)) disputed.set(file, undefined);
      }
    },
    { articles },
  );
  return { claimed, disputed, underArticles };
}

function collisionsOf({ claimed, disputed }: Claims): Collision[] {
  // One collision per set of owners: a category "authors" and the authors page dispute two files, and are one problem.
  const byKey = new Map<string, Collision>();
  for (const [file, folder] of disputed) {
    const owners = (claimed.get(file) as Writer[]).map((w) => w.owner);
    const collision: Collision = { files: [file], owners, folder };
    const key = collisionKey(collision);
    const same = byKey.get(key);
    if (same) same.files.push(file);
    else byKey.set(key, collision);
  }
  // A subcategory is inside a build folder because its category is: the category's problem covers it
  // (its own folder problem, or, for search/, its clash with the search results page at search/index.html).
  const named = new Set([...byKey.values()].flatMap((c) => c.owners.map((o) => collisionKey({ owners: [o] }))));
  return [...byKey.values()].filter((c) => !(c.folder && c.owners[0]!.parent && named.has(collisionKey({ owners: [c.owners[0]!.parent] }))));
}

/** Collisions with the same key are one problem: the same owners, and the same folder if any. */
export function collisionKey({ owners, folder }: Pick<Collision, 'owners' | 'folder'>): string {
  return [folder?.folder ?? '', ...owners.map((o) => (o.source ? `${o.name}|${o.source.file}|${o.source.field}` : o.name))].join('\n');
}

/** One problem per collision, filed under the first owner content names: that is where the rename goes. */
export function collisionProblem(collision: Collision): Problem {
  const { owners, files, folder } = collision;
  const named = owners.find((o) => o.source) ?? owners[0]!;
  const others = owners.filter((o) => o !== named);
  const who = listOf([named.name, ...others.map((o) => (o.source ? `${o.name} (${o.source.file})` : o.name))]);
  const verb = owners.length === 1 ? 'writes' : owners.length === 2 ? 'both write' : 'all write';
  // Into a folder, the first file says enough (and is the same for every locale's site, however many archive pages it has).
  const what = folder ? files[0]! : files.length <= 2 ? listOf(files) : `${files.slice(0, 2).join(', ')} and ${files.length - 2} more files`;
  const where = folder ? ` into ${folder.folder}, which holds ${folder.holds}` : '';
  const changes = owners.flatMap((o) => (o.source ? [o.source.change] : []));
  return {
    file: named.source?.file ?? '',
    field: named.source?.field,
    severity: 'error',
    message: `${who} ${verb} ${what}${where}`,
    hint: changes.length ? `rename ${changes.join(' or ')}` : 'this is a bug in felt: please report it',
  };
}

function listOf(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The collisions of one site (one content locale), as content problems. */
export function routeProblems(model: SiteModel): Problem[] {
  return findCollisions(model).map(collisionProblem);
}

/**
 * The collisions of every site the content makes, one per content locale
 * (their articles differ; the category, author and info routes are the
 * same, so those problems are reported once). No UI string is needed to
 * list routes, so none is loaded: a route that tried to translate would fail here.
 */
export function contentRouteProblems(content: SiteContent): Problem[] {
  const noMessages = Object.fromEntries(UI_LOCALES.map((ui) => [ui, {}])) as Record<UiLocale, Messages>;
  const all = new Map<string, Collision>();
  for (const locale of CONTENT_LOCALES) {
    for (const collision of findCollisions(buildSiteModel(content, { locale, messages: noMessages }))) {
      const key = collisionKey(collision);
      const same = all.get(key);
      if (!same) all.set(key, collision);
      else for (const file of collision.files) if (!same.files.includes(file)) same.files.push(file);
    }
  }
  return [...all.values()].map(collisionProblem);
}
