/**
 * Share cards: the 1200 × 630 JPEG a social network or chat shows for a page
 * (og:image, twitter:image). Crawlers do not read SVG, so a card is a raster,
 * and a raster costs about 6 ms of CPU to draw (`npm run bench:covers`: 6.3 ms): one
 * per article made a cold build of 100,000 articles spend 12 minutes of CPU on
 * pictures nobody sees until the page is shared.
 *
 * So an article whose cover is drawn (its own SVG, coverArt.ts) shares its
 * card with the articles filed where it is: the card is drawn by the same
 * art from its category and subcategory, with one of CARD_VARIANTS seeds
 * that the slug picks. The number of cards a build draws is bounded by the
 * categories, never by the articles. An article with the operator's own
 * picture keeps a card made from that picture (site/pictures/rasterise.ts):
 * those are rasterised anyway, and they show the article's subject.
 */
import { fnv1a } from '../../shared/hash.ts';
import type { Placement } from '../model/categoryIndex.ts';
import { urls } from '../model/urls.ts';
import type { CoverSubject } from './coverArt.ts';

/**
 * Cards per subcategory. The bundled categories.json has 42 subcategories, so
 * a site draws at most 42 × 2 + 1 (the site's card) = 85 cards, about 0.5 s of
 * CPU once per image cache, whether it has 1,000 articles (which paid 7 s for
 * 1,000 cards before) or 100,000 (12 minutes before). Two, because of
 * two articles of one subcategory shared side by side in a feed, half look
 * alike, where one variant would make them all alike; each variant more costs
 * another 42 rasters (0.25 s of CPU, a tenth of a cold 1,000-article build's)
 * for a smaller gain: a third variant takes that half to a third.
 */
export const CARD_VARIANTS = 2;

export interface ShareCard {
  /** The card's address on the site (the og:image's path). */
  path: string;
  /** What coverArt.ts draws it from; none for a provider picture's card, made with its other rasters. */
  subject?: CoverSubject;
}

/** Which of the subcategory's cards an article shows: the same for the same slug, spread evenly over slugs. */
export function cardVariant(slug: string): number {
  return (fnv1a(slug) % CARD_VARIANTS) + 1;
}

/**
 * The share card of an article: its provider picture's own card, else the
 * card of where it is filed first (`placement`, as its cover), else, filed
 * nowhere, the site's card.
 */
export function articleShareCard(slug: string, placement: Placement | undefined, brand: string, hasPicture: boolean): ShareCard {
  if (hasPicture) return { path: urls.shareCard(slug) };
  if (!placement) return siteShareCard(brand);
  const { category, subcategory } = placement;
  const variant = cardVariant(slug);
  return { path: urls.sharedCard(category.slug, subcategory.slug, variant), subject: subcategoryCardSubject(category.key, subcategory.key, variant) };
}

/** What a subcategory's card `variant` is drawn from (categories.json keys). */
export function subcategoryCardSubject(category: string, subcategory: string, variant: number): CoverSubject {
  // The variant is the art's seed where a cover has its slug: the card's shapes are the subcategory's, not an article's.
  return { slug: `card ${category}/${subcategory} ${variant}`, category, subcategory };
}

/** The share card of every page that is not an article: the brand's colours and motif. */
export function siteShareCard(brand: string): ShareCard {
  return { path: urls.siteCard(), subject: siteCardSubject(brand) };
}

export function siteCardSubject(brand: string): CoverSubject {
  return { slug: brand };
}
