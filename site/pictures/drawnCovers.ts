/**
 * Which drawn cover (coverArt.ts) an article shows, and its file.
 *
 * The articles filed in one subcategory share COVER_VARIANTS covers: the
 * art is the subcategory's (its category's colours and motif, its accent and
 * layout), seeded by the variant, and an article takes the variant of its
 * place in the subcategory counted from the oldest, so any COVER_VARIANTS
 * articles in a row there show different covers. A listing page (16 cards
 * by default), a category page (its subcategories' articles in a row) and
 * the related articles (neighbours in the subcategory) never show one twice,
 * and counting from the oldest keeps every cover where it was when newer
 * articles arrive (one that arrives among older ones moves the covers of the
 * newer ones by one, and a rebuild checks the pages that show them:
 * build/additions.ts). One file per variant, not per article: at 10,000
 * articles 2,688 files instead of 10,000 on the bundled 42 subcategories,
 * at 100,000 the same 2,688 instead of 100,000, each one fewer inode for
 * the build to make and one fewer object for `felt deploy` to upload
 * (README, Performance). An article filed nowhere keeps a cover of its own,
 * seeded by its slug, as every article's was before.
 */
import type { Placement } from '../model/categoryIndex.ts';
import { urls } from '../model/urls.ts';
import type { CoverSubject } from './coverArt.ts';

/** Covers per subcategory: more than a listing page's cards, so that none shows one twice. */
export const COVER_VARIANTS = 64;

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
export function coverVariant(position: number, length: number): number {
  return (length - 1 - position) % COVER_VARIANTS;
}
