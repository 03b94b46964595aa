/**
 * Rendered markdown in the page. A table sits in a box that scrolls sideways on a phone (markdown.ts); a box that
 * scrolls must be reachable by keyboard, so it takes focus, and a screen reader names it by the one hidden label
 * here, in the page's language (the markdown is rendered once, for every language).
 */
import { TABLE_LABEL_ID } from '../render/markdown.ts';
import { useSite } from './SiteContext.tsx';

export function Prose({ html, className, lang }: { html: string; className: string; lang?: string }) {
  const { t } = useSite();
  return (
    <>
      <div className={className} lang={lang} dangerouslySetInnerHTML={{ __html: html }} />
      {html.includes(`aria-labelledby="${TABLE_LABEL_ID}"`) && (
        <span id={TABLE_LABEL_ID} hidden>
          {t('article.table')}
        </span>
      )}
    </>
  );
}
