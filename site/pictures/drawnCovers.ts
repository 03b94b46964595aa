/**
 * Which drawn cover (coverArt.ts) an article shows, and its file.
 *
 * The articles filed first in one subcategory share coverVariants() covers:
 * the art is the subcategory's (its category's colours and motif, its accent
 * and layout), seeded by the variant, and an article takes the variant of
 * its place in that subcategory counted from the oldest, so that many
 * articles in a row there show different covers. A listing page holds at
 * most two pages' worth of cards (model/pagination.ts), fewer than the
 * variants, so the subcategory's listing pages, its category's and the
 * related articles (neighbours in the subcategory, then in the category)
 * never show one twice among the articles filed there first. A page that
 * takes its articles from far apart in a subcategory can: an author's page,
 * or a listing that shows an article through its second filing
 * (README, Pictures, has how often). Counting from the oldest keeps every
 * cover where it was when newer articles arrive; one that arrives among
 * older ones moves the covers of the newer ones by one, and a rebuild checks
 * the pages that show them (build/additions.ts). One file per variant, not
 * per article: at 10,000 articles 2,688 files instead of 10,000 on the
 * bundled 42 subcategories, at 100,000 the same 2,688 instead of 100,000,
 * each one fewer inode for the build to make and one fewer object for
 * `felt deploy` to upload (README, Performance). An article filed nowhere
 * (loaded content has none, content/crossCheck.ts refuses one; a model made
 * from other articles could) keeps a cover of its own, seeded by its slug.
 */
import type { Placement } from '../model/categoryIndex.ts';
import { urls } from '../model/urls.ts';
import type { CoverSubject } from './coverArt.ts';

/** Covers per subcategory at least: a few dozen drawings, far fewer files than articles on a large site. */
export const COVER_VARIANTS = 64;

/**
 * Covers per subcategory for listings of `pageSize` (site.json `home.pageSize`): more than the most cards a listing
 * page holds (a front page: up to twice the page size less one).
 */
export function coverVariants(pageSize: number): number {
  return Math.max(COVER_VARIANTS, 2 * pageSize);
}

/** A drawn cover: its address on the site, and what coverArt.ts draws it from. */
export interface DrawnCover {
  path: string;
  subject: CoverSubject;
}

/** Variant `variant` of the covers of the subcategory `placement` names. */
export function subcategoryCover({ category, subcategory }: Pick<Placement, 'category' | 'subcategory'>, variant: number): DrawnCover {
  return {
    path: urls.sharedCover(category.slug, subcategory.slug, variant),
    // The variant is the art's seed where an article filed nowhere has its slug, as for the share cards.
    subject: { slug: `cover ${category.key}/${subcategory.key} ${variant}`, category: category.key, subcategory: subcategory.key },
  };
}

/** The cover of an article filed nowhere: its own, seeded by its slug. */
export function ownCover(slug: string): DrawnCover {
  return { path: urls.coverSvg(slug), subject: { slug } };
}

/** The variant of the article at `position` in its subcategory's listing of `length` (newest first, as listings are). */
export function coverVariant(position: number, length: number, variants: number): number {
  return (length - 1 - position) % variants;
}
