/**
 * One page spec → the files it is written to (its HTML and its page data).
 * Everything it needs arrives as a plain-JSON RenderSetup, so the same code
 * runs on the main thread and in render workers.
 */
import { createTranslator, type Messages } from '../i18n/translator.ts';
import type { CategoryNode, SiteSettings, UiLocale } from '../../shared/types.ts';
import type { SiteContextValue } from '../components/SiteContext.tsx';
import type { PageSpec } from '../pages/types.ts';
import { pageOutputPaths } from '../routes/pageFiles.ts';
import { headTags, renderDocument, type DocumentAssets } from './document.ts';
import { renderMain, type Shell } from './renderPage.tsx';

export interface RenderSetup {
  ui: UiLocale;
  messages: Messages;
  fallbackMessages: Messages;
  settings: SiteSettings;
  categories: CategoryNode[];
  shell: Shell;
  assets: DocumentAssets;
  sqHash: string;
  compilationHash: string;
  ogLocale: string;
}

export interface OutputFile {
  path: string;
  content: string;
}

export type PageRenderer = (spec: PageSpec) => OutputFile[];

export function createPageRenderer(setup: RenderSetup): PageRenderer {
  const translator = createTranslator(setup.ui, setup.messages, setup.fallbackMessages);
  const site: SiteContextValue = {
    t: translator.t,
    pick: translator.pick,
    formatDate: translator.formatDate,
    settings: setup.settings,
    categories: setup.categories,
  };
  const skipLabel = translator.t('skip.toContent');
  return (spec) => {
    const main = renderMain(spec, site);
    const head = headTags(spec.head, setup.settings, setup.ogLocale);
    const html = renderDocument({
      lang: translator.lang,
      ogLocale: setup.ogLocale,
      kind: spec.kind,
      head: spec.head,
      headHtml: head,
      main,
      shell: setup.shell,
      assets: setup.assets,
      settings: setup.settings,
      skipLabel,
    });
    const [htmlFile, dataFile] = pageOutputPaths(spec);
    return [
      { path: htmlFile, content: html },
      { path: dataFile, content: pageDataJson(spec, main, head, setup) },
    ];
  };
}

/**
 * page-data.json (SPEC section 7): the page's main HTML and head tags, for client-side navigation. Of the head's
 * fields only the title goes: the client sets document.title from it and swaps the tags themselves from headHtml,
 * which holds every other field already (the description, canonical, JSON-LD…), so sending them twice made each
 * article's page data 1.3 KB larger, to fetch and prefetch, for nothing.
 */
function pageDataJson(spec: PageSpec, html: string, headHtml: string, setup: RenderSetup): string {
  return JSON.stringify({
    componentChunkName: `component---${spec.kind}`,
    path: spec.path,
    webpackCompilationHash: setup.compilationHash,
    result: { pageContext: { kind: spec.kind, head: { title: spec.head.title }, headHtml, html } },
    staticQueryHashes: [setup.sqHash],
    slicesMap: { header: 'header', footer: 'footer' },
  });
}
