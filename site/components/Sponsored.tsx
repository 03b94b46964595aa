/**
 * Sponsored links (SPEC section 1). The HTML has already been sanitised to
 * links and inline text by render/sponsored.ts before it reaches here.
 */
import type { SponsoredStyle } from '../../shared/types.ts';
import { useSite } from './SiteContext.tsx';

export function SponsoredLinks({ heading, links, style }: { heading: string; links: string[]; style: SponsoredStyle }) {
  const { t } = useSite();
  if (links.length === 0) return null;
  return (
    <aside className={`sponsored sponsored-${style}`} aria-label={heading}>
      <h2 className="sponsored-heading">
        {heading} <span className="sponsored-tag">{t('sponsored.label')}</span>
      </h2>
      {style === 'list' ? (
        <ul>
          {links.map((html, i) => (
            <li key={i} dangerouslySetInnerHTML={{ __html: html }} />
          ))}
        </ul>
      ) : style === 'inline' ? (
        <p>
          {links.map((html, i) => (
            <span key={i} className="sponsored-item" dangerouslySetInnerHTML={{ __html: html }} />
          ))}
        </p>
      ) : (
        <div className="sponsored-blocks">
          {links.map((html, i) => (
            <div key={i} className="sponsored-block" dangerouslySetInnerHTML={{ __html: html }} />
          ))}
        </div>
      )}
    </aside>
  );
}

/** The "new url" block under the header. */
export function SponsoredNewUrl({ html }: { html: string }) {
  const { t } = useSite();
  if (!html) return null;
  return (
    <aside className="new-url" aria-label={t('sponsored.label')}>
      <span className="sponsored-tag">{t('sponsored.label')}</span> <span dangerouslySetInnerHTML={{ __html: html }} />
    </aside>
  );
}
