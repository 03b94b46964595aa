/**
 * `felt build`: content folder → a complete static site in outDir.
 * Stages: load and validate → model (index, summaries) → page specs →
 * pages rendered on every core (only those whose inputs changed) → feeds,
 * sitemaps, search index → swap into place.
 *
 * The site is built as a new release beside the one served, and outDir (a
 * link) flips to it at the end (output.ts): a failed or killed build leaves
 * the previous site serving, whole.
 */
import { readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadMessages } from '../i18n/loadMessages.ts';
import { mark } from './timings.ts';
import { STATIC_DIR, cacheFolderOf } from '../../shared/paths.ts';
import { ContentError } from '../../shared/errors.ts';
import type { ContentLocale, SiteContent, UiLocale } from '../../shared/types.ts';
import { siteContextOf, type SiteContextValue } from '../components/SiteContext.tsx';
import { loadContent } from '../content/loadContent.ts';
import { articleCacheFile } from '../content/articleCache.ts';
import { countOrigins, overlayDevArticles } from '../content/devOverlay.ts';
import { withoutRetracted } from '../content/retractions.ts';
import { REDIRECTS_FILE, retractedFiles } from '../render/retractedPages.ts';
import { PREVIEW_LIST_FILE, previewListPage } from '../render/previewList.ts';
import { locateProblems } from '../content/problemLines.ts';
import { buildSiteModel, type SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import type { PageSpec } from '../pages/types.ts';
import { adsFor, announceNewTab, sanitizeAdHtml } from '../render/sponsored.ts';
import { buildAssets } from '../assets/clientBundle.ts';
import { digest } from '../../shared/digest.ts';
import { MANIFEST_FILE, ManifestMaker, UNKEYED, feltCodeVersion, type BuildManifest } from './buildCache.ts';
import { readManifestAhead, servedManifest, type ManifestAhead } from './manifestAhead.ts';
import { assembleRelease, finishRewrite, openRelease, openRewrite, type Assembled } from './commit.ts';
import { planAdditions, planKey, recordedArticles, type AdditionPlan } from './additions.ts';
import { faviconIco } from '../assets/favicon.ts';
import { siteFeeds } from '../indexes/siteFeeds.ts';
import { FileSink, MemorySink, type OutputSink } from './fileSink.ts';
import { nextReleasePath, prepareOutput, publishRelease, type OutputLayout } from './output.ts';
import { checkCacheFolder, removeLeftover } from './swapFaults.ts';
import { loadingContent, preparingOutput, writingSite } from './stages.ts';
import { duringStage } from '../../shared/stageErrors.ts';
import { createPageKeyer } from './pageKey.ts';
import { crashPoint } from './crashPoints.ts';
import type { RenderSetup } from '../render/pageRenderer.ts';
import { createRenderPool, defaultThreads, type PoolOptions, type PoolOutput, type RenderPool } from './renderPool.ts';
import { renderShell } from '../render/renderPage.tsx';
import { countPages, pageEntries } from '../routes/routes.ts';
import { routeProblems } from '../routes/collisions.ts';
import { pageOutputPaths } from '../routes/pageFiles.ts';
import { SEARCH_MANIFEST, writeSearchIndex } from '../indexes/searchIndex.ts';
import { absoluteUrl } from '../render/seo.ts';
import { createSerializableCheck } from '../render/serializable.ts';
import { serviceWorkerSource } from '../assets/serviceWorker.ts';
import { headerProps, shortHash, staticQueryData } from '../render/sharedData.ts';
import { findProviderPictures } from '../pictures/providerPictures.ts';
import { startCovers } from '../pictures/coverStage.ts';
import { robotsTxt, sitemapRow, SitemapWriter } from '../indexes/sitemapXml.ts';

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  locale?: ContentLocale;
  ui?: UiLocale;
  /** The build time: the copyright year and feed dates. */
  now?: Date;
  /** Render threads (default: one per core). */
  threads?: number;
  /** Reuse unchanged pages of the previous build in outDir, and parsed articles from .felt-cache/ (default true). */
  incremental?: boolean;
  /** `felt preview` only: the dev articles (content.dev/) laid over content/'s, marked as drafts (content/devOverlay.ts). */
  devContentDir?: string;
  onProgress?: (done: number, total: number) => void;
  /** Called once the output folder is ready (site/build/output.ts, prepareOutput), before anything of the site is written. */
  onOutputReady?: () => void;
}

/** A build kept in memory (see buildSiteInMemory): nothing of outDir, threads or the caches applies. */
export type MemoryBuildOptions = Omit<BuildOptions, 'outDir' | 'threads' | 'incremental'>;

/** Where writeSite puts files: the layout's staging folder, made into a release at the end, or memory (no layout). */
type Target = {
  layout?: OutputLayout;
  sink: OutputSink;
  pool: PoolOutput;
  /** Set by writeSite: waits for what it has under way beside the pages (the cover stage's rasters). */
  settled?: () => Promise<void>;
};

export interface BuildResult {
  outDir: string;
  locale: ContentLocale;
  ui: UiLocale;
  pages: number;
  /** Pages rendered this time; the others were unchanged and reused. */
  rendered: number;
  /**
   * Pages this build checked for a change (worked out their inputs, or made their spec). After articles were only
   * added, the pages they cannot change are not checked (additions.ts); otherwise every page is.
   */
  checked: number;
  articles: number;
  /** Where the articles came from: content/ (production) or, in a preview, the dev bucket (issue 17.2). */
  origins: { production: number; dev: number };
  /** A preview's articles from the dev bucket, newest first: what publishing would add or change. */
  drafts?: { slug: string; title: string; draft: 'new' | 'changed' }[];
  compilationHash: string;
  threads: number;
  /**
   * A release made from an older one, and how many files it linked from the served release. An incremental build's
   * (commit.ts): from the spare, chained or compared, or reworked when made from other templates; from a killed
   * build's unfinished release, salvaged; or from nothing. A full build's over the spare or a killed build's
   * release: rewritten. Absent for a full build into a new folder.
   */
  release?: { from: Assembled['from'] | 'rewritten'; linked: number };
  milliseconds: number;
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const cacheDir = cacheFolderOf(options.contentDir);
  const cacheFile = options.incremental === false ? undefined : articleCacheFile(options.contentDir);
  if (cacheFile) checkCacheFolder(cacheDir);
  const outDir = path.resolve(options.outDir);
  // The served release's manifest, read while another thread checks the content's files (a large site's): this
  // thread would wait meanwhile, and the manifest of 100,000 articles takes it 0.1-0.2 s.
  let ahead: ManifestAhead | undefined;
  const model = await loadModel(options, cacheFile, cacheFile ? () => (ahead = readManifestAhead(outDir)) : undefined);
  const layout = await duringStage(preparingOutput(outDir), async () => prepareOutput(outDir));
  options.onOutputReady?.();
  const { staging } = layout;
  const target: Target = { layout, sink: new FileSink({ dir: staging }), pool: { dir: staging } };
  try {
    // Covers are a pure function of their key, checked whole when read: a full rebuild (--no-incremental) takes them
    // from the cache too, as it takes the hashed assets' names from their contents. An empty cache is a cold build.
    const imageCache = path.join(cacheDir, 'images');
    const { finish, ...result } = await duringStage(writingSite(outDir), () => writeSite(model, outDir, target, { ...options, imageCache, ahead }));
    mark('write');
    const release = await duringStage(writingSite(outDir), finish);
    mark(release ? `commit (release ${release.from}, ${release.linked} files linked)` : 'commit');
    return {
      outDir,
      locale: model.locale,
      ui: model.ui,
      articles: model.articles.length,
      origins: countOrigins(model.articles),
      ...(options.devContentDir ? { drafts: draftsOf(model) } : {}),
      ...result,
      ...(release ? { release } : {}),
      milliseconds: Date.now() - started,
    };
  } catch (error) {
    // An unfinished release is never served; the next build removes whatever this leaves. On a
    // read-only or failing disk the removal fails too: the first failure is the one to report.
    // Nothing may still be writing into it meanwhile.
    await target.settled?.();
    removeLeftover(staging);
    throw error;
  }
}

/**
 * The whole site as files in memory, for tests that read pages without a
 * folder: every page rendered on this thread, nothing read from or written to
 * disk but the content. Output is byte-identical to buildSite's.
 */
export async function buildSiteInMemory(options: MemoryBuildOptions): Promise<BuildResult & { files: ReadonlyMap<string, string | Uint8Array> }> {
  const started = Date.now();
  const model = await loadModel(options, undefined);
  const sink = new MemorySink();
  // A folder that is never created: the asset bundler names its files relative to it.
  const virtualRoot = path.resolve('felt-in-memory');
  const { finish: _unused, ...result } = await writeSite(
    model,
    virtualRoot,
    { sink, pool: { sink } },
    { ...options, outDir: virtualRoot, incremental: false, threads: 1 },
  );
  return {
    outDir: virtualRoot,
    locale: model.locale,
    ui: model.ui,
    articles: model.articles.length,
    origins: countOrigins(model.articles),
    ...result,
    milliseconds: Date.now() - started,
    files: sink.files,
  };
}

async function loadModel(options: MemoryBuildOptions, cacheFile: string | undefined, beside?: () => void): Promise<SiteModel> {
  const messages = await loadMessages();
  mark('start');
  const contentDir = path.resolve(options.contentDir);
  const loaded = await duringStage(loadingContent(contentDir), () => loadContent(contentDir, { cacheFile, beside }));
  // A retraction wins over a dev article of the same slug too (content/retractions.ts).
  const content = options.devContentDir ? withoutRetracted(await overlayDevArticles(loaded, path.resolve(options.devContentDir))) : loaded;
  mark('load content');
  const pictures = findProviderPictures(contentDir, options.locale ?? content.settings.locale);
  const model = buildSiteModel(content, { locale: options.locale, ui: options.ui, messages, now: options.now, pictures });
  mark('model');
  // Two routes writing one file: refused before anything is written, dist/ and its recovery included.
  const collisions = routeProblems(model);
  if (collisions.length) throw new ContentError(await locateProblems(collisions, model.content.root));
  mark('route check');
  return model;
}

function draftsOf(model: SiteModel): NonNullable<BuildResult['drafts']> {
  return model.articles.flatMap((a) => (a.draft ? [{ slug: a.slug, title: a.title, draft: a.draft }] : []));
}

function siteContext(model: SiteModel): SiteContextValue {
  return siteContextOf(model.translator, model.content.settings, model.content.categories, model.locale);
}

/**
 * Writes the site into `staging`: everything for a cold build, only what
 * changed for an incremental one. Returns how to put it in place.
 */
async function writeSite(model: SiteModel, outDir: string, target: Target, options: BuildOptions & { imageCache?: string; ahead?: ManifestAhead }) {
  const { settings } = model.content;
  const assets = await buildAssets(target.layout?.staging ?? outDir);
  mark('assets');
  const compilationHash = shortHash(`${assets.js}|${assets.css}`);
  const header = headerProps(model, `/${SEARCH_MANIFEST}`);
  const sharedJson = JSON.stringify(staticQueryData(model, header));
  const sqHash = shortHash(sharedJson);
  const staticQuery = `/page-data/sq/d/${sqHash}.json`;
  const banner = announceNewTab(sanitizeAdHtml(adsFor(model.content.ads, model.translator.ui).sapeNewUrl), model.translator.t('link.opensInNewTab'));
  const shell = renderShell(siteContext(model), header, banner, model.now.getUTCFullYear());
  const setup: RenderSetup = {
    ui: model.ui,
    messages: model.translator.messages,
    fallbackMessages: model.translator.fallbackMessages,
    settings,
    categories: model.content.categories,
    shell,
    assets: { js: assets.js, css: assets.css, preload: assets.preload, islands: assets.islands, staticQuery, build: compilationHash },
    sqHash,
    compilationHash,
    ogLocale: model.locale,
  };

  // Reuse the previous build only when the same code made it from the same templates.
  const templateKey = digest(`${feltCodeVersion()}|${JSON.stringify(setup)}`);
  const previous = options.incremental === false || !target.layout?.current ? undefined : servedManifest(target.layout.current, options.ahead);
  const reuse = previous?.templateKey === templateKey ? previous : undefined;
  // A build that renders every page writes it over the spare release's, or a killed build's (commit.ts, openRewrite);
  // an incremental build writes straight into its new release, the spare renamed to it (openRelease). Either
  // replaces the files there that are hard links to the served release's.
  const rewrite = !reuse && target.layout ? openRewrite(target.layout) : undefined;
  const opened = reuse && target.layout ? openRelease(target.layout, reuse, templateKey) : undefined;
  const into = opened?.folder ?? rewrite;
  if (into) {
    const folder = { dir: into, replace: true };
    target.sink = new FileSink(folder);
    target.pool = folder;
  }
  const maker = new ManifestMaker(templateKey, reuse);
  const { manifest } = maker;
  // After articles were only added, the pages they cannot change are kept without a look (additions.ts).
  const preview = options.devContentDir !== undefined;
  manifest.planKey = planKey(model, preview);
  const additions = reuse ? planAdditions(model, reuse, manifest.planKey, preview) : undefined;
  const plan = additions && 'added' in additions ? additions : undefined;
  mark(`plan (${plan ? `${plan.added.length} articles added` : additions && 'fullCheck' in additions ? `every page: ${additions.fullCheck}` : 'every page'})`);
  manifest.articles = plan?.articles ?? recordedArticles(model);
  if (plan) maker.keepUnseenPages();
  // What this build writes, for the release it reworks (commit.ts): at 100,000 articles 340,000 paths, 30 MB of heap,
  // which a full build over the spare keeps too (finishRewrite removes what is not on it). A site's first build, into
  // its staging folder, keeps no list: that folder is its release as it stands.
  const written: string[] | undefined = into ? [] : undefined;
  const { sink, layout } = target;

  // The rasters (a cold build's share cards) are made on libuv's threads while the pages render.
  const covers = startCovers(
    model,
    {
      record: (file, version) => maker.setOther(file, version),
      write: (file, bytes) => {
        sink.write(file, bytes);
        written?.push(file);
      },
    },
    { cacheDir: options.imageCache, additions: plan && !plan.coversMoved ? { articles: plan.added, keep: (kept) => maker.keepOthers(kept) } : undefined },
  );
  target.settled = covers.settled;
  // The SVG covers are drawn by the render threads, a few with each batch of pages.
  const svgCovers = covers.takeSvgs();
  if (written) for (const cover of svgCovers) written.push(cover.path.slice(1));

  /** Writes a file the release does not have as it is; returns its digest, its version in the manifest. */
  const putOther = (file: string, contents: string | Uint8Array) => {
    const hash = digest(contents);
    if (reuse?.others.get(file) !== hash) {
      sink.write(file, contents);
      written?.push(file);
    }
    return hash;
  };
  const writeOther = (file: string, contents: string | Uint8Array) => maker.setOther(file, putOther(file, contents));
  // A file of the current release kept as it is: in the manifest, not written (commit.ts links it).
  const keepOther = (file: string, hash: string) => maker.setOther(file, hash);

  // The search index (a full one: about 40 µs of CPU an article) is made by this thread while the workers render
  // the pages queued for it. Its files' versions go into the manifest as they are written: held in a list until the
  // other files were done, they were about 50 B an article beside the manifest's own (a heap snapshot at 50,000).
  let search: { summary: ReturnType<typeof writeSearchIndex>; milliseconds: number } | undefined;
  const makeSearchIndex = () => {
    // Made once: by the render pool beside the pages, or here after them when the pool never ran it.
    if (search) return;
    const started = performance.now();
    const summary = writeSearchIndex(model, {
      previous: reuse?.others,
      currentRelease: target.layout?.current,
      write: writeOther,
      keep: keepOther,
    });
    search = { summary, milliseconds: performance.now() - started };
  };
  const beside = { run: makeSearchIndex, pagesAhead: Math.min(SEARCH_PAGES_AHEAD_MAX, Math.ceil(model.articles.length / 16)) };
  // Past 50,000 pages a sitemap file is written as its rows are complete, during the pages; its version goes into the
  // manifest below, where the sitemaps always went.
  const sitemapVersions: [file: string, version: string][] = [];
  const sitemap = new SitemapWriter(settings.url, (file) => sitemapVersions.push([file.file, putOther(file.file, file.xml)]));
  const pages = await renderPages(model, target.pool, setup, reuse, maker, written, sitemap, {
    ...options,
    plan,
    busy: covers.busy,
    covers: svgCovers,
    beside,
  });
  // The last pages render on the workers while this thread makes every other file below; a failed build waits for
  // them before it removes what it wrote.
  target.settled = async () => {
    await pages.finishing.catch(() => undefined);
    await covers.settled();
  };
  mark('pages');

  for (const file of assets.files) writeOther(file.path, file.contents);
  writeOther(staticQuery.slice(1), sharedJson);
  // No /slice-data/*.json: nothing read them (the header's data is the static query file above, the footer is in every page).
  writeOther('page-data/app-data.json', JSON.stringify({ webpackCompilationHash: compilationHash }));
  writeOther(
    'sw.js',
    await serviceWorkerSource(compilationHash, {
      lang: model.translator.lang,
      site: settings.title,
      heading: model.translator.t('offline.heading'),
      message: model.translator.t('nav.offline'),
      home: model.translator.t('notFound.home'),
      stylesheet: assets.css,
    }),
  );
  sitemap.finish();
  for (const [file, version] of sitemapVersions) maker.setOther(file, version);
  writeOther('robots.txt', robotsTxt(settings.url));
  for (const feed of siteFeeds(model)) writeOther(feed.path, feed.content);
  mark('sitemaps, feeds');
  if (!search) makeSearchIndex();
  const { summary, milliseconds } = search!;
  mark(`search index (${summary.base ? 'base' : `delta ${summary.delta}, ${summary.tombstones} gone`}; ${milliseconds.toFixed(0)} ms beside the pages)`);
  for (const file of staticFiles(model.content)) writeOther(file.path, file.content);
  for (const file of retractedFiles(model, assets.css)) writeOther(file.path, file.content);
  if (options.devContentDir) writeOther(PREVIEW_LIST_FILE, previewListPage(model, assets.css));
  mark('other files');
  const coverCounts = await covers.finish();
  mark(`covers (${coverCounts.made} made, ${coverCounts.cached} cached)`);

  maker.finishPages();
  // An incremental build's manifest records what differs from the served release, for the next build (commit.ts).
  if (reuse && layout?.current) manifest.delta = { from: path.basename(layout.current), ...maker.delta() };
  const manifestText = maker.serialize();
  await pages.finishing;
  if (target.layout) crashPoint('pages-written');
  // The manifest goes last: until it is in place, the previous one describes the output. A full build's staging
  // folder is its release, renamed whole; an incremental build's release gets it once the rest is linked (commit.ts).
  if (!into) sink.write(MANIFEST_FILE, manifestText);
  // Puts the release in place; says how it was made, when from an older one.
  const finish = async (): Promise<BuildResult['release']> => {
    if (!layout) return undefined;
    if (rewrite) {
      finishRewrite(rewrite, written!, manifestText);
      await publishRelease(layout, rewrite);
      return { from: 'rewritten', linked: 0 };
    }
    if (!opened) {
      const release = nextReleasePath(layout);
      renameSync(layout.staging, release);
      await publishRelease(layout, release);
      return undefined;
    }
    const { release, from, linked } = await assembleRelease(layout, { opened, written: written!, current: manifest, served: reuse!, manifestText });
    await publishRelease(layout, release);
    return { from, linked };
  };
  return { pages: pages.count, rendered: pages.rendered, checked: pages.checked, compilationHash, threads: pages.threads, finish };
}

/**
 * The most pages queued for the workers while this thread makes the search index: about 1.6 s of a worker's
 * rendering, and the index's whole time up to 32,000 articles; the queue is held in memory meanwhile.
 */
const SEARCH_PAGES_AHEAD_MAX = 2048;

/** Below this many pages to render, workers cost more to start than they save. */
const INLINE_LIMIT = 300;

async function renderPages(
  model: SiteModel,
  output: PoolOutput,
  setup: RenderSetup,
  reuse: BuildManifest | undefined,
  maker: ManifestMaker,
  written: string[] | undefined,
  sitemap: SitemapWriter,
  options: BuildOptions & Pick<PoolOptions, 'busy' | 'covers' | 'beside'> & { plan?: AdditionPlan },
) {
  const { settings } = model.content;
  let count = 0;
  let rendered = 0;
  let checked = 0;
  const total = countPages(model);
  const threads = options.threads ?? defaultThreads();
  // An incremental build, at any size, holds back its first pages: if that is all there is to render (a night's
  // additions: about 60 pages), they are rendered here, without starting a worker. A worker started for them cost a
  // rebuild at 100,000 articles more than it saved: its modules, compiled again for its heap, on the core that
  // lists and checks the article files meanwhile (statFiles.ts). Three alternating pairs of rebuilds after 20 new
  // articles: 1.64-1.73 s this way against 1.85-2.09 s with one, 1.7 against 2.3-2.5 s of user CPU (2026-11-29).
  let pool: RenderPool | undefined;
  if (!reuse) pool = createRenderPool(setup, output, { threads, busy: options.busy, covers: options.covers, beside: options.beside, writeBeside: true });
  const held: PageSpec[] = [];
  const render = async (spec: PageSpec) => {
    if (!pool && held.length < INLINE_LIMIT) {
      held.push(spec);
      return;
    }
    pool ??= createRenderPool(setup, output, { threads, busy: options.busy, covers: options.covers, beside: options.beside });
    for (const waiting of held.splice(0)) await pool.render(waiting);
    await pool.render(spec);
  };
  const keyOf = createPageKeyer();
  const assertSerializable = createSerializableCheck();
  try {
    const { plan } = options;
    for (const entry of pageEntries(model)) {
      // Made from the same inputs as last time, known without working them out (the manifest keeps its entries), or
      // found so: the same spec, key and files.
      const unchanged = plan && !plan.mayChange(entry);
      if (!unchanged) checked++;
      if (unchanged || (entry.inputs !== undefined && maker.keptPage(entry.path, entry.inputs))) {
        sitemap.add(sitemapRow(absoluteUrl(settings, entry.path), entry.lastmod));
      } else {
        const spec = entry.spec();
        // A cold build renders every page whatever its key, and a page with inputs needs its key only in a build
        // that finds those inputs changed: unkeyed, such a page is rendered then, as it is when its key changed. One
        // spec serialised and hashed fewer a page: 0.19 s of the build thread's CPU at 10,000 articles (--cpu-prof).
        // The price: once after a cold build, a page whose inputs changed but whose spec did not is rendered too.
        const key = maker.cold && entry.inputs !== undefined ? UNKEYED : keyOf(spec);
        const previousKey = maker.setPage(spec.path, key, entry.inputs);
        if (previousKey !== key) {
          // An unchanged key means the same JSON as a spec already checked when it was rendered.
          assertSerializable(spec.props, spec.path);
          await render(spec);
          written?.push(...pageOutputPaths(spec));
          rendered++;
        }
        if (spec.head.canonical && !spec.head.noindex) sitemap.add(sitemapRow(absoluteUrl(settings, spec.path), lastModified(spec)));
      }
      count++;
      if (options.onProgress && count % 500 === 0 && count < total) options.onProgress(count, total);
    }
    pool ??= createRenderPool(setup, output, { threads: 1, covers: options.covers, beside: options.beside });
    for (const waiting of held.splice(0)) await pool.render(waiting);
    mark('find changed pages');
  } catch (error) {
    await pool?.finish().catch(() => undefined);
    throw error;
  }
  // The pages still queued on workers render while the caller makes the files that need no page (writeSite): a build
  // with a worker waited 0.2-0.3 s here for it (a rebuild at 100,000 articles, when rebuilds started one), with the
  // sitemaps, the search index and the manifest still to make on this thread. Handled at once: a failure meanwhile is
  // the caller's when it awaits `finishing`, never an unhandled rejection.
  const finishing = pool.finish().then(() => {
    mark('finish rendering');
    options.onProgress?.(total, total);
  });
  finishing.catch(() => undefined);
  return { count, rendered, checked, threads: pool.threads, finishing };
}

function lastModified(spec: PageSpec): string | undefined {
  return spec.kind === 'article' ? (spec.props.updated ?? spec.props.date) : undefined;
}

/** The logo under the brand's name, the favicon, and content/static/ (the operator's own files). */
function* staticFiles(content: SiteContent): Generator<{ path: string; content: Uint8Array }> {
  yield { path: urls.logo(content.settings.brand).slice(1), content: readFileSync(path.join(STATIC_DIR, 'logo-small.png')) };
  yield { path: 'icons/icon.svg', content: readFileSync(path.join(STATIC_DIR, 'icon.svg')) };
  yield { path: 'favicon.ico', content: faviconIco(readFileSync(path.join(STATIC_DIR, 'favicon-32.png'))) };
  const own = path.join(content.root, 'static');
  if (!statSync(own, { throwIfNoEntry: false })?.isDirectory()) return;
  for (const entry of readdirSync(own, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(own, full).split(path.sep).join('/');
    // The operator's _redirects is merged with the retracted articles' rules (render/retractedPages.ts).
    if (relative === REDIRECTS_FILE) continue;
    yield { path: relative, content: readFileSync(full) };
  }
}
