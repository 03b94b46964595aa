/**
 * An article's cover (site/pictures/): AVIF, then WebP, each at three
 * widths, in a box whose width and height are set, so the page does not move
 * when it arrives. Below the fold it loads lazily; the one image a page opens
 * with (the article's cover, the home page's lead) loads first instead.
 */
import { urls } from '../model/urls.ts';
import { COVER_FORMATS, COVER_HEIGHT, COVER_WIDTH, COVER_WIDTHS } from '../pictures/coverSizes.ts';

export type CoverLoading = 'lazy' | 'eager' | 'high';

export function CoverImage({
  slug,
  sizes,
  alt = '',
  loading = 'lazy',
  className,
}: {
  slug: string;
  sizes: string;
  alt?: string;
  loading?: CoverLoading;
  className: string;
}) {
  const srcSet = (format: string) => COVER_WIDTHS.map((width) => `${urls.cover(slug, width, format)} ${width}w`).join(', ');
  // React 18 knows fetchPriority only in lower case, as an unknown attribute.
  const priority = loading === 'high' ? { fetchpriority: 'high' } : {};
  return (
    <picture className={className}>
      {COVER_FORMATS.map((format) => (
        <source key={format} type={`image/${format}`} srcSet={srcSet(format)} sizes={sizes} />
      ))}
      <img
        src={urls.cover(slug, COVER_WIDTHS[1], 'webp')}
        width={COVER_WIDTH}
        height={COVER_HEIGHT}
        alt={alt}
        decoding="async"
        loading={loading === 'lazy' ? 'lazy' : undefined}
        {...priority}
      />
    </picture>
  );
}
