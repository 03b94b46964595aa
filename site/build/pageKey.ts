/**
 * A page's cache key (see buildCache.ts): the digest of its whole spec, so
 * any change to what a page is made from renders it again.
 *
 * Article summaries sit in many specs at once (listings, related articles,
 * the home page) and make up most of their bytes, as do the bylines that all
 * of an author's articles share; each such object is serialised once per
 * build and stands in every spec as its own digest. At 10,000 articles that
 * halves the JSON a rebuild hashes just to learn what changed.
 */
import type { PageSpec } from '../pages/types.ts';
import { digest } from '../../shared/digest.ts';

export type PageKeyer = (spec: PageSpec) => string;

export function createPageKeyer(): PageKeyer {
  const keys = new WeakMap<object, string>();
  const ref = (shared: object) => {
    let key = keys.get(shared);
    if (key === undefined) keys.set(shared, (key = digest(JSON.stringify(shared))));
    return key;
  };
  // Named, for CPU profiles (bench/profile.mjs).
  return function pageKey(spec) {
    return digest(JSON.stringify(keyedForm(spec, ref)));
  };
}

/** The spec with its shared objects replaced by their digests; everything else is kept as is. */
function keyedForm(spec: PageSpec, ref: (shared: object) => string): object {
  const refs = (list: object[]) => list.map(ref);
  switch (spec.kind) {
    case 'article':
      return { ...spec, props: { ...spec.props, author: ref(spec.props.author), related: refs(spec.props.related) } };
    case 'category':
    case 'subcategory':
    case 'author':
      return { ...spec, props: { ...spec.props, articles: refs(spec.props.articles) } };
    case 'home': {
      const { lead, best, updated, categories } = spec.props;
      const props = {
        ...spec.props,
        lead: refs(lead),
        best: refs(best),
        updated: refs(updated),
        categories: categories.map((c) => ({ ...c, articles: refs(c.articles) })),
      };
      return { ...spec, props };
    }
    default:
      return spec;
  }
}
