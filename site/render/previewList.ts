/**
 * `felt preview`'s page /preview/: every article the dev bucket would add
 * ("new") or replace ("changed") if it were published now, newest first,
 * each with its badge and a link to its page in the preview. Written only
 * by a preview build, never by `felt build`.
 */
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import { escapeHtml } from './document.ts';
import { plainPage } from './plainPage.ts';

export const PREVIEW_LIST_FILE = 'preview/index.html';

export function previewListPage(model: SiteModel, css: string): string {
  const { t, formatDate } = model.translator;
  const site = model.content.settings.title;
  const drafts = model.articles.filter((a) => a.draft);
  const items = drafts.map(
    (a) =>
      `<li class="card"><span class="sponsored-tag draft-badge" data-draft="${a.draft}">${escapeHtml(t(`preview.${a.draft!}`))}</span> ` +
      `<a class="card-title" href="${escapeHtml(urls.article(a.slug))}">${escapeHtml(a.title)}</a> ` +
      `<span class="card-meta">${escapeHtml(a.author)} · <time datetime="${escapeHtml(a.date)}">${escapeHtml(formatDate(a.date))}</time></span></li>`,
  );
  return plainPage(
    model,
    t('preview.title', { site }),
    '<meta name="robots" content="noindex">',
    [
      `<h1>${escapeHtml(t('preview.heading'))}</h1>`,
      `<p class="page-description">${escapeHtml(t('preview.intro'))}</p>`,
      items.length ? `<ul class="preview-list">${items.join('')}</ul>` : `<p class="empty">${escapeHtml(t('preview.empty'))}</p>`,
    ].join(''),
    css,
  );
}
