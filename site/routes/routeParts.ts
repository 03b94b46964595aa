/**
 * What the route modules share: a page before its sponsored links (Draft),
 * the sponsored links themselves, and the home crumb every trail starts with.
 */
import type { Crumb } from '../components/Breadcrumbs.tsx';
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import type { Head, PageProps, PageSpec } from '../pages/types.ts';
import { sponsoredHeadingIndex, sponsoredLinksFor } from '../render/sponsored.ts';

export type Draft = PageProps & { path: string; head: Head };

/** Adds each page's sponsored links; the four headings are translated once, not once per page. */
export function sponsorship(model: SiteModel): (draft: Draft) => PageSpec {
  const { ads, settings } = model.content;
  const headings = new Map<number, string>();
  return (draft) => {
    const links = draft.kind === 'notFound' || draft.kind === 'serverError' ? [] : sponsoredLinksFor(ads.sapeLinks, draft.path, settings.sponsored.limit);
    const index = sponsoredHeadingIndex(draft.path);
    let heading = headings.get(index);
    if (heading === undefined) headings.set(index, (heading = model.translator.t(`sponsored.heading.${index}`)));
    return Object.assign(draft, { sponsored: { heading, links } }) as PageSpec;
  };
}

export function home(model: SiteModel): Crumb {
  return { name: model.translator.t('breadcrumbs.home'), href: urls.home() };
}
