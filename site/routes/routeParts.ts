/**
 * What the route modules share: a page before its sponsored links (Draft),
 * the sponsored links themselves, the home crumb every trail starts with,
 * and the owners of pages, named when two of them claim one file.
 */
import path from 'node:path';
import type { Article, Author, CategoryNode } from '../../shared/types.ts';
import type { Crumb } from '../components/Breadcrumbs.tsx';
import { displayPath } from '../../shared/paths.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import type { Head, PageProps, PageSpec } from '../pages/types.ts';
import { adsFor, announceNewTab, sponsoredHeadingIndex, sponsoredLinksFor } from '../render/sponsored.ts';

export type Draft = PageProps & { path: string; head: Head };

/** Adds each page's sponsored links; the four headings are translated once, not once per page. */
export function sponsorship(model: SiteModel): (draft: Draft) => PageSpec {
  const { settings } = model.content;
  const ads = adsFor(model.content.ads, model.translator.ui);
  const headings = new Map<number, string>();
  // Translated when a page is made, not here: the route check walks the pages with no UI strings loaded (collisions.ts).
  let newTab: string | undefined;
  return (draft) => {
    const found = draft.kind === 'notFound' || draft.kind === 'serverError' ? [] : sponsoredLinksFor(ads.sapeLinks, draft.path, settings.sponsored.limit);
    const links = found.map((html) => announceNewTab(html, (newTab ??= model.translator.t('link.opensInNewTab'))));
    const index = sponsoredHeadingIndex(draft.path);
    let heading = headings.get(index);
    if (heading === undefined) headings.set(index, (heading = model.translator.t(`sponsored.heading.${index}`)));
    return Object.assign(draft, { sponsored: { heading, links } }) as PageSpec;
  };
}

export function home(model: SiteModel): Crumb {
  return { name: model.translator.t('breadcrumbs.home'), href: urls.home() };
}

/**
 * Who a page or a file of the build belongs to, as an error names it. Pages
 * that content names (a category, an author, an article) say where: the file
 * and field to change. felt's own pages and files have no source.
 */
export interface Owner {
  /** `category "poker"`, `the 404 page`. */
  name: string;
  source?: OwnerSource;
  /** The owner whose route this one's is under (a subcategory's category): renaming that moves both. */
  parent?: Owner;
}

export interface OwnerSource {
  file: string;
  field: string;
  /** What to rename there: "the category slug". */
  change: string;
}

/** felt's own pages and files. */
export function feltOwned(name: string): Owner {
  return { name };
}

function contentFile(model: SiteModel, name: string): string {
  return displayPath(path.join(model.content.root, name));
}

export function categoryOwner(model: SiteModel, category: CategoryNode): Owner {
  return {
    name: `category "${category.slug}"`,
    source: { file: contentFile(model, 'categories.json'), field: `${category.key}.slug`, change: 'the category slug' },
  };
}

export function subcategoryOwner(model: SiteModel, category: CategoryNode, child: CategoryNode, parent: Owner): Owner {
  return {
    name: `subcategory "${category.slug}/${child.slug}"`,
    source: { file: contentFile(model, 'categories.json'), field: `${category.key}.children.${child.key}.slug`, change: 'the subcategory slug' },
    parent,
  };
}

/** `index` is the author's place in authors.json, an array. */
export function authorOwner(model: SiteModel, author: Author, index: number): Owner {
  return { name: `author "${author.name}"`, source: { file: contentFile(model, 'authors.json'), field: `${index}.slug`, change: 'the author slug' } };
}

export function articleOwner(article: Article): Owner {
  return { name: `article "${article.slug}"`, source: { file: article.file, field: 'slug', change: 'the article slug (and its file name)' } };
}
