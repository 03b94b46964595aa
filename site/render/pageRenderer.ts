/**
 * One page spec → the files it is written to (its HTML and its page data).
 * Everything it needs arrives as a plain-JSON RenderSetup, so the same code
 * runs on the main thread and in render workers.
 */
import { createTranslator, type Messages } from '../i18n/translator.ts';
import type { CategoryNode, ContentLocale, SiteSettings, UiLocale } from '../../shared/types.ts';
import { siteContextOf } from '../components/SiteContext.tsx';
import type { PageSpec } from '../pages/types.ts';
import { pageOutputPaths } from '../routes/pageFiles.ts';
import { renderDocument, type DocumentAssets } from './document.ts';
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
  /** The content locale (en_US): og:locale, and the lang of what the articles wrote. */
  ogLocale: ContentLocale;
}

export interface OutputFile {
  path: string;
  content: string;
}

export type PageRenderer = (spec: PageSpec) => OutputFile[];

export function createPageRenderer(setup: RenderSetup): PageRenderer {
  const translator = createTranslator(setup.ui, setup.messages, setup.fallbackMessages);
  const site = siteContextOf(translator, setup.settings, setup.categories, setup.ogLocale);
  const skipLabel = translator.t('skip.toContent');
  return (spec) => {
    const main = renderMain(spec, site);
    const html = renderDocument({
      lang: translator.lang,
      ogLocale: setup.ogLocale,
      kind: spec.kind,
      head: spec.head,
      main,
      shell: setup.shell,
      assets: setup.assets,
      settings: setup.settings,
      skipLabel,
    });
    const [htmlFile, dataFile] = pageOutputPaths(spec);
    return [
      { path: htmlFile, content: html },
      { path: dataFile, content: pageDataJson(spec, setup) },
    ];
  };
}

/**
 * page-data.json (SPEC section 7): what the client's router decides by (the page's kind, its title, the build), and
 * not the page's HTML. The client fetches the HTML document beside it and takes <main> and the head's own tags from
 * there (site/client/navigation/pageData.ts). Until 2026-11-29 the page data held <main> and the head's tags again,
 * JSON-escaped: three tenths of the bytes a build wrote and the deploy uploaded, and a tenth of a 10,000-article cold
 * build's user CPU, for a copy of what the HTML file next to it holds (README, "Page data").
 */
function pageDataJson(spec: PageSpec, setup: RenderSetup): string {
  return JSON.stringify({
    componentChunkName: `component---${spec.kind}`,
    path: spec.path,
    webpackCompilationHash: setup.compilationHash,
    result: { pageContext: { kind: spec.kind, head: { title: spec.head.title } } },
    staticQueryHashes: [setup.sqHash],
    slicesMap: { header: 'header', footer: 'footer' },
  });
}
