/**
 * A page outside the React page kinds: the retracted articles' gone and
 * redirect pages, and `felt preview`'s list of what would be published.
 * Plain HTML with the site's stylesheet and its name linking home; no
 * script (the site's CSP allows no inline one, and none is needed).
 */
import type { SiteModel } from '../model/siteModel.ts';
import { escapeHtml } from './document.ts';
import { CONTENT_SECURITY_POLICY_META } from './securityPolicy.ts';

export function plainPage(model: SiteModel, title: string, head: string, main: string, css: string): string {
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(model.translator.lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    CONTENT_SECURITY_POLICY_META,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    head,
    `<link rel="stylesheet" href="${escapeHtml(css)}">`,
    '</head>',
    '<body>',
    `<header class="site-header"><div class="header-bar"><a class="logo" href="/"><span class="logo-title">${escapeHtml(model.content.settings.title)}</span></a></div></header>`,
    `<main id="main" class="main">${main}</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
