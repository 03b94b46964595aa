/**
 * An article's cover (site/pictures/), in a box whose width and height are
 * set, so the page does not move when it arrives. A generated cover is its
 * SVG, one file at every width (drawing it into pixels at three widths and
 * two formats cost about 0.1 s of CPU per article, the SVG is 4 KB); the
 * provider's picture is AVIF, then WebP, each at three widths. Below the fold
 * it loads lazily; the one image a page opens with (the article's cover, the
 * home page's lead) loads first instead.
 */
import { urls } from '../model/urls.ts';
import { COVER_FORMATS, COVER_HEIGHT, COVER_WIDTH, COVER_WIDTHS } from '../pictures/coverSizes.ts';

export type CoverLoading = 'lazy' | 'eager' | 'high';

export function CoverImage({
  slug,
  svg,
  sizes,
  alt = '',
  loading = 'lazy',
  className,
}: {
  slug: string;
  /** The generated cover's address (site/pictures/drawnCovers.ts); none: the provider's picture, by `slug`. */
  svg?: string;
  sizes: string;
  alt?: string;
  loading?: CoverLoading;
  className: string;
}) {
  // React 18 knows fetchPriority only in lower case, as an unknown attribute.
  const priority = loading === 'high' ? { fetchpriority: 'high' } : {};
  const img = (src: string) => (
    <img src={src} width={COVER_WIDTH} height={COVER_HEIGHT} alt={alt} decoding="async" loading={loading === 'lazy' ? 'lazy' : undefined} {...priority} />
  );
  // A box of the same class as the <picture>, so the styles (main.css) and the layout are the same for both.
  if (svg !== undefined) return <div className={className}>{img(svg)}</div>;
  const srcSet = (format: string) => COVER_WIDTHS.map((width) => `${urls.cover(slug, width, format)} ${width}w`).join(', ');
  return (
    <picture className={className}>
      {COVER_FORMATS.map((format) => (
        <source key={format} type={`image/${format}`} srcSet={srcSet(format)} sizes={sizes} />
      ))}
      {img(urls.cover(slug, COVER_WIDTHS[1], 'webp'))}
    </picture>
  );
}
