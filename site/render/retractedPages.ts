/**
 * What a retracted article's old address answers (issue 12, item 5). A
 * retraction without a redirect gets a small "gone" page at
 * /articles/{slug}/, which `felt serve` sends with status 410 and a static
 * host shows as it is; one with a redirect gets a page that moves the
 * reader on (meta refresh, canonical to the target, a link for readers
 * whose browser does not follow the refresh). Both are also listed in
 * `_redirects`, the file hosts such as Netlify read and `felt serve`
 * honours (site/serve/redirects.ts). Every visible string is a UI string.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Retraction } from '../../shared/retraction.ts';
import { isSitePath } from '../../shared/retraction.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { outputFileFor, urls } from '../model/urls.ts';
import { escapeHtml } from './document.ts';
import { plainPage as frame } from './plainPage.ts';
import { absoluteUrl } from './seo.ts';

export const REDIRECTS_FILE = '_redirects';

export interface RetractedFile {
  path: string;
  content: string;
}

export function retractedFiles(model: SiteModel, css: string): RetractedFile[] {
  const retractions = model.content.retracted?.[model.locale] ?? [];
  const files: RetractedFile[] = [];
  const rules: string[] = [];
  for (const retraction of retractions) {
    const from = urls.article(retraction.slug);
    const file = outputFileFor(from);
    if (retraction.redirect) {
      files.push({ path: file, content: redirectPage(model, retraction.redirect, css) });
      rules.push(`${from} ${retraction.redirect} 301!`);
    } else {
      files.push({ path: file, content: gonePage(model, retraction, css) });
      rules.push(`${from} /${file} 410!`);
    }
  }
  const own = operatorRedirects(model.content.root);
  if (rules.length || own !== undefined) {
    // The operator's own rules come first: the first matching line wins.
    const parts = [own?.trimEnd(), rules.length ? `# retracted articles (felt retract)\n${rules.join('\n')}` : undefined].filter(Boolean);
    files.push({ path: REDIRECTS_FILE, content: `${parts.join('\n')}\n` });
  }
  return files;
}

/** content/static/_redirects, if the operator keeps one: merged into felt's, not overwritten by it. */
function operatorRedirects(contentRoot: string): string | undefined {
  try {
    return readFileSync(path.join(contentRoot, 'static', REDIRECTS_FILE), 'utf8');
  } catch {
    return undefined;
  }
}

function gonePage(model: SiteModel, retraction: Retraction, css: string): string {
  const { t } = model.translator;
  const site = model.content.settings.title;
  return frame(
    model,
    t('gone.title', { site }),
    '<meta name="robots" content="noindex">',
    [
      '<div class="error-page">',
      '<p class="error-code" aria-hidden="true">410</p>',
      `<h1>${escapeHtml(t('gone.heading'))}</h1>`,
      `<p>${escapeHtml(t('gone.body', { title: retraction.title }))}</p>`,
      `<p class="error-actions"><a class="button" href="/">${escapeHtml(t('notFound.home'))}</a></p>`,
      '</div>',
    ].join(''),
    css,
  );
}

function redirectPage(model: SiteModel, target: string, css: string): string {
  const { t } = model.translator;
  const site = model.content.settings.title;
  const absolute = isSitePath(target) ? absoluteUrl(model.content.settings, target) : target;
  return frame(
    model,
    t('moved.title', { site }),
    [
      `<meta http-equiv="refresh" content="0; url=${escapeHtml(target)}">`,
      `<link rel="canonical" href="${escapeHtml(absolute)}">`,
      '<meta name="robots" content="noindex">',
    ].join('\n'),
    `<div class="error-page"><h1>${escapeHtml(t('moved.heading'))}</h1><p><a class="button" href="${escapeHtml(target)}">${escapeHtml(t('moved.link'))}</a></p></div>`,
    css,
  );
}
