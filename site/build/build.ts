/**
 * `felt build`: content folder → a complete static site in outDir.
 * Stages: load and validate → model (index, summaries) → page specs →
 * HTML, page data, feeds and sitemaps → swap into place.
 */
import { cp, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { contentLangTag } from '../core/i18n.ts';
import { loadMessages } from '../core/loadMessages.ts';
import { STATIC_DIR } from '../core/paths.ts';
import type { ContentLocale, SiteContent, UiLocale } from '../core/types.ts';
import type { SiteContextValue } from '../components/SiteContext.tsx';
import { loadContent } from '../content/loadContent.ts';
import { buildSiteModel, type SiteModel } from '../model/siteModel.ts';
import { outputFileFor, pageDataPathFor, urls } from '../model/urls.ts';
import { SPECIAL_FILES, type PageSpec } from '../pages/types.ts';
import { sanitizeAdHtml } from '../render/sponsored.ts';
import { buildAssets } from './assets.ts';
import { headTags, renderDocument } from './document.ts';
import { renderRss, type FeedItem } from './feeds.ts';
import { OutputWriter, createStaging, swapIntoPlace } from './output.ts';
import { renderMain, renderShell } from './renderPage.tsx';
import { allPages } from './routes.ts';
import { absoluteUrl } from './seo.ts';
import { assertSerializable } from './serializable.ts';
import { headerProps, shortHash, staticQueryData } from './sharedData.ts';
import { buildSitemaps, robotsTxt, type SitemapEntry } from './sitemapXml.ts';
import { buildSearchIndex, SEARCH_MANIFEST } from './searchIndex.ts';
import { faviconIco } from './favicon.ts';
import { serviceWorkerSource } from './serviceWorker.ts';

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  locale?: ContentLocale;
  ui?: UiLocale;
  /** The build time: the copyright year and feed dates. */
  now?: Date;
  onProgress?: (done: number, total: number) => void;
}

export interface BuildResult {
  outDir: string;
  locale: ContentLocale;
  ui: UiLocale;
  pages: number;
  files: number;
  articles: number;
  compilationHash: string;
  milliseconds: number;
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const messages = await loadMessages();
  const content = await loadContent(options.contentDir);
  const model = buildSiteModel(content, { locale: options.locale, ui: options.ui, messages, now: options.now });
  const outDir = path.resolve(options.outDir);
  const staging = await createStaging(outDir);
  const out = new OutputWriter(staging);
  try {
    const pages = await writeSite(model, out, options.onProgress);
    await out.flush();
    await swapIntoPlace(staging, outDir);
    return {
      outDir,
      locale: model.locale,
      ui: model.ui,
      pages: pages.count,
      files: out.files.length,
      articles: model.articles.length,
      compilationHash: pages.compilationHash,
      milliseconds: Date.now() - started,
    };
  } catch (error) {
    await out.flush().catch(() => undefined);
    const { rm } = await import('node:fs/promises');
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

function siteContext(model: SiteModel): SiteContextValue {
  const { t, pick, formatDate } = model.translator;
  return { t, pick, formatDate, settings: model.content.settings, categories: model.content.categories };
}

async function writeSite(model: SiteModel, out: OutputWriter, onProgress?: BuildOptions['onProgress']) {
  const { settings } = model.content;
  const assets = await buildAssets(out.dir);
  out.files.push(...assets.files);
  const compilationHash = shortHash(`${assets.js}|${assets.css}`);
  const site = siteContext(model);

  const header = headerProps(model, `/${SEARCH_MANIFEST}`);
  const shared = staticQueryData(model, header);
  const sharedJson = JSON.stringify(shared);
  const sqHash = shortHash(sharedJson);
  const staticQuery = `/page-data/sq/d/${sqHash}.json`;
  await out.write(staticQuery.slice(1), sharedJson);
  const shell = renderShell(site, header, sanitizeAdHtml(model.content.ads.sapeNewUrl), model.now.getUTCFullYear());
  await out.write('slice-data/header.json', JSON.stringify({ result: { sliceContext: header, html: shell.header } }));
  await out.write('slice-data/footer.json', JSON.stringify({ result: { sliceContext: {}, html: shell.footer } }));
  await out.write('page-data/app-data.json', JSON.stringify({ webpackCompilationHash: compilationHash }));
  await out.write('sw.js', await serviceWorkerSource(compilationHash, { lang: model.translator.lang, title: settings.title, message: model.translator.t('nav.offline') }));

  const lang = model.translator.lang;
  const ogLocale = model.locale;
  const sitemap: SitemapEntry[] = [];
  const total = countPages(model);
  let count = 0;
  for (const spec of allPages(model)) {
    assertSerializable(spec.props, spec.path);
    const main = renderMain(spec, site);
    const html = renderDocument({ lang, ogLocale, kind: spec.kind, head: spec.head, main, shell, assets: { ...assets, staticQuery, build: compilationHash }, settings, skipLabel: model.translator.t('skip.toContent') });
    const special = SPECIAL_FILES[spec.kind];
    if (special) await out.write(special, html);
    else await out.write(outputFileFor(spec.path), html);
    await out.write(pageDataPathFor(spec.path).slice(1), pageDataJson(spec, main, headTags(spec.head, settings, ogLocale), sqHash, compilationHash));
    if (spec.head.canonical && !spec.head.noindex) sitemap.push({ loc: absoluteUrl(settings, spec.path), lastmod: lastModified(spec) });
    count++;
    if (onProgress && (count % 250 === 0 || count === total)) onProgress(count, total);
  }

  for (const file of buildSitemaps(settings.url, sitemap)) await out.write(file.file, file.xml);
  await out.write('robots.txt', robotsTxt(settings.url));
  await writeFeeds(model, out);
  for (const file of buildSearchIndex(model)) await out.write(file.path, file.content);
  await writeStaticFiles(model.content, out);
  return { count, compilationHash };
}

/** Pages the build will write, for progress: one pass over the specs without rendering. */
function countPages(model: SiteModel): number {
  let n = 0;
  for (const _ of allPages(model)) n++;
  return n;
}

function lastModified(spec: PageSpec): string | undefined {
  return spec.kind === 'article' ? (spec.props.updated ?? spec.props.date) : undefined;
}

/** page-data.json (SPEC section 7): the page's main HTML and head, for client-side navigation. */
function pageDataJson(spec: PageSpec, html: string, headHtml: string, sqHash: string, compilationHash: string): string {
  return JSON.stringify({
    componentChunkName: `component---${spec.kind}`,
    path: spec.path,
    webpackCompilationHash: compilationHash,
    result: { pageContext: { kind: spec.kind, head: spec.head, headHtml, html } },
    staticQueryHashes: [sqHash],
    slicesMap: { header: 'header', footer: 'footer' },
  });
}

async function writeFeeds(model: SiteModel, out: OutputWriter): Promise<void> {
  const { t, pick } = model.translator;
  const { settings, categories } = model.content;
  const language = contentLangTag(model.locale);
  const item = (id: string): FeedItem => {
    const article = model.byId.get(id)!;
    const placements = model.index.placements.get(id) ?? [];
    return {
      title: article.title,
      url: absoluteUrl(settings, urls.article(article.slug)),
      description: article.description,
      date: article.date,
      author: article.author,
      categories: [...new Set(placements.map((p) => pick(p.category.title)))],
    };
  };
  const base = { siteUrl: settings.url, language, now: model.now };
  await out.write('feed.xml', renderRss({ ...base, title: t('feed.title', { site: settings.title }), description: pick(settings.tagline), feedUrl: absoluteUrl(settings, urls.feed()), items: model.articles.slice(0, 20).map((a) => item(a.id)) }));
  for (const category of categories) {
    const ids = (model.index.byCategory.get(category.key) ?? []).slice(0, 20);
    await out.write(urls.categoryFeed(category.slug).slice(1), renderRss({ ...base, title: t('feed.categoryTitle', { site: settings.title, category: pick(category.title) }), description: pick(category.description), feedUrl: absoluteUrl(settings, urls.categoryFeed(category.slug)), items: ids.map(item) }));
  }
}

/** The logo under the brand's name, the favicon, and content/static/ (the operator's own files). */
async function writeStaticFiles(content: SiteContent, out: OutputWriter): Promise<void> {
  const logo = await readFile(path.join(STATIC_DIR, 'logo-small.png'));
  await out.write(urls.logo(content.settings.brand).slice(1), logo);
  await out.write('icons/icon.svg', await readFile(path.join(STATIC_DIR, 'icon.svg')));
  await out.write('favicon.ico', faviconIco(await readFile(path.join(STATIC_DIR, 'favicon-32.png'))));
  await out.flush();
  const own = path.join(content.root, 'static');
  if (await stat(own).then((s) => s.isDirectory(), () => false)) await cp(own, out.dir, { recursive: true });
}
