/** Every URL the site links to is made here, so routes live in one place. */
export const urls = {
  home: () => '/',
  article: (slug: string) => `/articles/${slug}`,
  category: (categorySlug: string) => `/${categorySlug}`,
  subcategory: (categorySlug: string, subcategorySlug: string) => `/${categorySlug}/${subcategorySlug}`,
  authors: () => '/authors',
  author: (slug: string) => `/authors/${slug}`,
  about: () => '/info/about-us',
  privacy: () => '/privacy-policy',
  terms: () => '/terms',
  sitemap: () => '/sitemap',
  /** The search results page; the query is its ?q= (issue 18). */
  search: () => '/search',
  sitemapXml: () => '/sitemap.xml',
  feed: () => '/feed.xml',
  categoryFeed: (categorySlug: string) => `/feeds/${categorySlug}.xml`,
  logo: (brand: string) => `/icons/${brand}-logo-small.png`,
  /** An article's cover at one width and format (site/pictures/); by slug, so a new picture keeps its address. */
  cover: (slug: string, width: number, format: string) => `/images/covers/${slug}-${width}.${format}`,
  /** The generated cover of an article filed nowhere: the illustration itself, an SVG (it scales, so one file serves every width). */
  coverSvg: (slug: string) => `/images/covers/${slug}.svg`,
  /** A generated cover the articles of a subcategory share, one of its variants (site/pictures/drawnCovers.ts). */
  sharedCover: (categorySlug: string, subcategorySlug: string, variant: number) => `/images/covers/${categorySlug}/${subcategorySlug}-${variant}.svg`,
  /** The 1200 × 630 share card (og:image) of an article with its own picture. */
  shareCard: (slug: string) => `/images/og/${slug}.jpg`,
  /** A share card the drawn covers of a subcategory share, one of its variants (site/pictures/shareCards.ts). */
  sharedCard: (categorySlug: string, subcategorySlug: string, variant: number) => `/images/cards/${categorySlug}/${subcategorySlug}-${variant}.jpg`,
  /** The share card of every page that is not an article. */
  siteCard: () => '/images/site-card.jpg',
  /** Archive page n of a listing (model/pagination.ts); 0 is the listing's front page. */
  page: (base: string, page: number) => (page < 1 ? base : `${base === '/' ? '' : base}/page/${page}`),
};

/** The file a route is written to inside dist/. */
export function outputFileFor(pagePath: string): string {
  return pagePath === '/' ? 'index.html' : `${pagePath.replace(/^\//, '')}/index.html`;
}

/** The page-data file of a route (SPEC section 7: "index" for the home page). */
export function pageDataPathFor(pagePath: string): string {
  return `/page-data/${pagePath === '/' ? 'index' : pagePath.replace(/^\//, '')}/page-data.json`;
}
