import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../site/build/build.ts';
import { ContentError } from '../../shared/errors.ts';
import { FIXTURE_SITE, fixtureCopy, tempDir } from './helpers.ts';

const NOW = new Date('2026-11-21T12:00:00Z');

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full, base)));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** Route paths of the HTML pages in a built site. */
function routesOf(files: string[]): string[] {
  return files
    .filter((f) => f.endsWith('.html'))
    .map((f) => (f === 'index.html' ? '/' : f.endsWith('/index.html') ? `/${f.slice(0, -'/index.html'.length)}` : `/${f}`))
    .sort();
}

function head(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
}

describe('building the fixture site', () => {
  let out: string;
  let result: BuildResult;
  let files: string[];
  const read = (file: string) => readFile(path.join(out, file), 'utf8');

  beforeAll(async () => {
    out = path.join(await tempDir(), 'dist');
    result = await buildSite({ contentDir: FIXTURE_SITE, outDir: out, now: NOW });
    files = await listFiles(out);
  });

  it('writes every route of the site and nothing else', () => {
    expect(routesOf(files)).toEqual(
      [
        '/',
        '/404.html',
        '/500.html',
        '/articles/advanced-hedging',
        '/articles/crypto-books',
        '/articles/first-steps',
        '/articles/poker-basics',
        '/articles/table-talk',
        '/authors',
        '/authors/colette-marchand',
        '/authors/dev-raghunathan',
        '/authors/dev-raghunathan/page/1',
        '/authors/mara-lindqvist',
        '/authors/mara-lindqvist/page/1',
        '/betting-strategies',
        '/betting-strategies/advanced-betting-techniques',
        '/betting-strategies/fundamental-betting-strategies',
        '/betting-strategies/other-betting-strategies',
        '/betting-strategies/page/1',
        '/betting-strategies/page/2',
        '/info/about-us',
        '/privacy-policy',
        '/search',
        '/sitemap',
        '/terms',
        '/ultimate-poker-guides-strategies',
        '/ultimate-poker-guides-strategies/advanced-poker-strategies',
        '/ultimate-poker-guides-strategies/beginner-poker-tips',
        '/ultimate-poker-guides-strategies/other-poker-guides',
        '/ultimate-poker-guides-strategies/page/1',
        '/ultimate-poker-guides-strategies/page/2',
      ].sort(),
    );
    expect(result.articles).toBe(5);
    for (const file of [
      'robots.txt',
      'sitemap.xml',
      'feed.xml',
      'feeds/betting-strategies.xml',
      'feeds/ultimate-poker-guides-strategies.xml',
      'favicon.ico',
      'icons/felt-logo-small.png',
      'page-data/app-data.json',
    ]) {
      expect(files).toContain(file);
    }
    // Nothing read /slice-data/*.json, so the build no longer writes them (issue 18, item 6).
    expect(files.filter((file) => file.startsWith('slice-data/'))).toEqual([]);
  });

  it('writes page data for every page and the build hash in app-data.json', async () => {
    // What the client runtime fetches for each page: /page-data/{route}/page-data.json, "index" for the
    // home page and 404/500 for the error pages, each naming its own route.
    const dataFile = (route: string) => `page-data/${route === '/' ? 'index' : route.slice(1).replace(/\.html$/, '')}/page-data.json`;
    expect(dataFile('/')).toBe('page-data/index/page-data.json');
    expect(dataFile('/404.html')).toBe('page-data/404/page-data.json');
    for (const route of routesOf(files)) {
      const data = JSON.parse(await read(dataFile(route)));
      expect(data.path, route).toBe(route === '/' ? '/' : route.replace(/\.html$/, ''));
    }
    const app = JSON.parse(await read('page-data/app-data.json'));
    expect(app.webpackCompilationHash).toMatch(/^[0-9a-f]{16}$/);
    const data = JSON.parse(await read('page-data/articles/first-steps/page-data.json'));
    expect(data.path).toBe('/articles/first-steps');
    // What the router decides by, and no copy of the page's HTML, which the client takes from the page itself.
    expect(data.result.pageContext).toEqual({ kind: 'article', head: { title: 'First Steps in Betting | Fixture Table' } });
    const [sq] = data.staticQueryHashes;
    expect(files).toContain(`page-data/sq/d/${sq}.json`);
    // The menu lives once in the static query file, not in every page's data.
    expect(JSON.stringify(data)).not.toContain('menuCategories');
  });

  it('gives the article page its head: title, description, canonical, Open Graph, JSON-LD, hreflang', async () => {
    const html = await read('articles/first-steps/index.html');
    const h = head(html);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en-US">/);
    expect(h).toContain('<title>First Steps in Betting | Fixture Table</title>');
    expect(h).toContain('<meta name="description" content="Where a careful bettor starts.">');
    expect(h).toContain('<link rel="canonical" href="https://fixture.example/articles/first-steps">');
    expect(h).toContain('<meta property="og:type" content="article">');
    expect(h).toContain('<meta property="og:title" content="First Steps in Betting | Fixture Table">');
    expect(h).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(h).toContain('<link rel="alternate" hreflang="en-US" href="https://fixture.example/articles/first-steps">');
    expect(h).toContain('<link rel="alternate" hreflang="ru-RU" href="https://ru.fixture.example/articles/pervye-shagi">');
    const [articleLd, breadcrumbs] = jsonLd(html);
    expect(articleLd).toMatchObject({
      '@type': 'Article',
      headline: 'First Steps in Betting',
      datePublished: '2026-01-10',
      dateModified: '2026-02-01',
      author: { '@type': 'Person', name: 'Mara Lindqvist', url: 'https://fixture.example/authors/mara-lindqvist' },
    });
    expect(breadcrumbs).toMatchObject({ '@type': 'BreadcrumbList' });
    expect((breadcrumbs!.itemListElement as { name: string }[]).map((i) => i.name)).toEqual([
      'Home',
      'Betting Strategies', // without its emoji: a name machines read (issue 18, item 4)
      expect.any(String),
      'First Steps in Betting',
    ]);
  });

  it('renders the article: breadcrumbs, author link, dates, reading time, contents, related, tags', async () => {
    const html = await read('articles/first-steps/index.html');
    expect(html).toContain('<a rel="author" href="/authors/mara-lindqvist">Mara Lindqvist</a>');
    expect(html).toContain('<time dateTime="2026-01-10">January 10, 2026</time>');
    expect(html).toContain('<time dateTime="2026-02-01">February 1, 2026</time>');
    expect(html).toMatch(/1 min read/);
    expect(html).toContain('<a href="#section-set-a-budget">Set a budget</a>');
    expect(html).toContain('<h2 id="section-set-a-budget">Set a budget</h2>');
    expect(html).toContain('<li>Flat Staking</li>');
    expect(html).toMatch(/Related articles[\s\S]*\/articles\/(advanced-hedging|crypto-books)/);
  });

  it('gives each page kind its title, description and structured data', async () => {
    const home = await read('index.html');
    expect(head(home)).toContain('<title>Fixture Table: betting and poker, explained</title>');
    expect(jsonLd(home)[0]).toMatchObject({ '@type': 'WebSite', name: 'Fixture Table' });
    const category = await read('betting-strategies/index.html');
    expect(head(category)).toContain('<link rel="canonical" href="https://fixture.example/betting-strategies">');
    expect(jsonLd(category).map((d) => d['@type'])).toEqual(['CollectionPage', 'BreadcrumbList']);
    const page2 = await read('betting-strategies/page/2/index.html');
    expect(head(page2)).toContain('<link rel="canonical" href="https://fixture.example/betting-strategies/page/2">');
    expect(head(page2)).toMatch(/<title>[^<]*\(Page 2\)/);
    const author = await read('authors/mara-lindqvist/index.html');
    const authorLd = jsonLd(author)[0] as { mainEntity: Record<string, unknown> };
    expect(authorLd.mainEntity).toMatchObject({ '@type': 'Person', name: 'Mara Lindqvist' });
    const notFound = await read('404.html');
    expect(head(notFound)).not.toContain('name="robots"'); // its 404 status keeps it out of indexes
    expect(head(notFound)).not.toContain('rel="canonical"');
    for (const file of ['authors/index.html', 'info/about-us/index.html', 'privacy-policy/index.html', 'terms/index.html', 'sitemap/index.html', '500.html']) {
      const h = head(await read(file));
      expect(h).toMatch(/<title>[^<]+<\/title>/);
      expect(h).toMatch(/<meta name="description" content="[^"]+">/);
    }
  });

  it('pages listings from the front page of the latest articles to archive pages numbered from the oldest', async () => {
    const front = await read('betting-strategies/index.html');
    const nav = (html: string) => (/<nav class="pagination"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '').replaceAll('<!-- -->', '');
    expect(front).toContain('3 articles');
    expect(front).toContain('/articles/first-steps'); // the newest
    expect(nav(front)).toContain('<span aria-current="page" aria-label="Latest articles">Latest</span>');
    expect(nav(front)).toMatch(/<a rel="next" href="\/betting-strategies\/page\/2">Older articles →<\/a>/);
    const oldest = await read('betting-strategies/page/1/index.html');
    expect(oldest).toContain('/articles/crypto-books');
    expect(oldest.replaceAll('<!-- -->', '')).toContain('Page 1 · December 20, 2025<'); // one day: one date, not a range
    expect(nav(oldest)).toMatch(/<a rel="prev" href="\/betting-strategies\/page\/2">← Newer articles<\/a>/);
    expect(nav(oldest)).not.toContain('rel="next"');
    // The number before the site's name, in the tab and in search results; the author's archive too (its meta_title ends with a name).
    expect(oldest).toMatch(/<title>[^<|]*Betting Strategies \(Page 1\) \| Fixture Table<\/title>/);
    expect(await read('authors/mara-lindqvist/page/1/index.html')).toMatch(/<title>Mara Lindqvist — [^<|]+ \(Page 1\) \| Felt Magazine<\/title>/);
  });

  it('lists exactly the built pages in sitemap.xml', async () => {
    const xml = await read('sitemap.xml');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace('https://fixture.example', '')).sort();
    // The search results page is noindex: one static page for every query.
    const pages = routesOf(files).filter((r) => !r.endsWith('.html') && r !== '/search');
    expect(locs).toEqual(pages);
    expect(xml).toContain('<loc>https://fixture.example/articles/first-steps</loc><lastmod>2026-02-01</lastmod>');
  });

  it('puts header, footer and the copyright year on every page', async () => {
    for (const route of routesOf(files)) {
      const file = route === '/' ? 'index.html' : route.endsWith('.html') ? route.slice(1) : `${route.slice(1)}/index.html`;
      const html = await read(file);
      expect(html).toContain('<header id="site-header"');
      expect(html).toContain('placeholder="Search"');
      expect(html).toContain('href="/icons/felt-logo-small.png"');
      expect(html).toMatch(/<footer class="site-footer">[\s\S]*Privacy Policy[\s\S]*Terms of Use[\s\S]*About Us[\s\S]*Authors[\s\S]*Sitemap[\s\S]*Sitemap XML/);
      expect(html).toContain('href="mailto:editors@feltmagazine.example"');
      expect(html).toContain('© 2026 Fixture Table');
      // The social links open a new tab, and say so to a screen reader.
      const social = [...html.matchAll(/<a href="[^"]+" rel="me noopener"[^>]*>([\s\S]*?)<\/a>/g)];
      expect(social, route).toHaveLength(3);
      for (const [link, inside] of social) {
        expect(link).toContain('target="_blank"');
        expect(inside).toContain('<span class="visually-hidden"> (<!-- -->opens in a new tab<!-- -->)</span>');
      }
    }
  });

  it('sanitises sponsored links, marks them sponsored, and says to a screen reader that they open a new tab', async () => {
    const home = await read('index.html');
    expect(home).toContain(
      '<a href="https://a.example/" rel="sponsored noopener" target="_blank">A partner<span class="visually-hidden"> (opens in a new tab)</span></a>',
    );
    expect(home).toContain(
      '<a href="https://odds.example/" rel="sponsored noopener" target="_blank">Odds<span class="visually-hidden"> (opens in a new tab)</span></a>',
    );
    expect(home).not.toMatch(/onclick|onerror|alert\(|javascript:/);
    const article = await read('articles/first-steps/index.html');
    expect(article).toContain(
      '<a href="https://b.example/" rel="sponsored noopener" target="_blank">B partner<span class="visually-hidden"> (opens in a new tab)</span></a>',
    );
    expect(article).toMatch(/(Sponsored Links|Partner Links|Recommended Sites|Related Resources)(<!-- -->)? <span class="sponsored-tag">/);
  });

  it('writes a real 72x72 PNG logo', async () => {
    const png = await readFile(path.join(out, 'icons/felt-logo-small.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([72, 72]);
  });

  it('writes feeds that list the newest articles', async () => {
    const feed = await read('feed.xml');
    expect(feed).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    const titles = [...feed.matchAll(/<item>\n<title>([^<]+)<\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual(['First Steps in Betting', 'Advanced Hedging', 'Crypto Sportsbooks', 'Poker Basics', 'Table Talk']);
    const category = await read('feeds/ultimate-poker-guides-strategies.xml');
    expect(category).toContain('<title>Poker Basics</title>');
    expect(category).not.toContain('<title>First Steps in Betting</title>');
  });
});

describe('building other locales', () => {
  it('builds the Russian site with a Russian interface', async () => {
    const ru = JSON.parse(await readFile(new URL('../../locales/ru.json', import.meta.url), 'utf8')) as Record<string, string>;
    const out = path.join(await tempDir(), 'dist');
    const result = await buildSite({ contentDir: FIXTURE_SITE, outDir: out, locale: 'ru_RU', now: NOW });
    expect(result).toMatchObject({ locale: 'ru_RU', ui: 'ru', articles: 1 });
    const html = await readFile(path.join(out, 'articles/pervye-shagi/index.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>\n<html lang="ru-RU">/);
    expect(html).toContain(ru['footer.about']);
    expect(html).toContain(ru['search.placeholder']);
    expect(html).toContain('<link rel="alternate" hreflang="en-US" href="https://fixture.example/articles/first-steps">');
  });

  it('gives a Korean interface over English articles with --ui ko', async () => {
    const ko = JSON.parse(await readFile(new URL('../../locales/ko.json', import.meta.url), 'utf8')) as Record<string, string>;
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: FIXTURE_SITE, outDir: out, locale: 'en_US', ui: 'ko', now: NOW });
    const html = await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8');
    expect(html).toMatch(/<html lang="ko-KR">/);
    expect(html).toContain(ko['footer.privacy']);
    expect(html).toContain('Start small and keep records.');
    // What the articles wrote is marked English, so a screen reader does not read it with a Korean voice; the
    // interface around it is Korean.
    expect(html).toMatch(/<h1 class="article-title" lang="en-US">/);
    expect(html).toMatch(/<p class="article-standfirst" lang="en-US">/);
    expect(html).toMatch(/<div class="article-body prose" lang="en-US">/);
    const home = await readFile(path.join(out, 'index.html'), 'utf8');
    const cards = home.match(/class="card-title"/g)?.length ?? 0;
    expect(cards).toBeGreaterThan(0);
    expect(home.match(/class="card-title" lang="en-US"/g)?.length).toBe(cards);
    // Without --ui the page's own lang says it all: no lang of their own.
    const plain = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: FIXTURE_SITE, outDir: plain, locale: 'en_US', now: NOW });
    const plainHtml = await readFile(path.join(plain, 'articles/first-steps/index.html'), 'utf8');
    expect(plainHtml).toMatch(/<h1 class="article-title">/);
    expect(plainHtml).not.toMatch(/class="(card-title|card-description|article-standfirst|article-body prose)" lang=/);
  });
});

describe('a failed build', () => {
  it('lists every problem and leaves the previous site as it was', async () => {
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: FIXTURE_SITE, outDir: out, now: NOW });
    const before = await stat(path.join(out, 'index.html'));
    const broken = await fixtureCopy({
      'articles/en_US/broken-one.md': '---\ntitle: Broken\n---\nNo slug, no author.\n',
      'articles/en_US/broken-two.md': '---\ntitle: [\n---\n',
    });
    const error = await buildSite({ contentDir: broken, outDir: out, now: NOW }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentError);
    const problems = (error as ContentError).problems.map((p) => `${path.basename(p.file)} ${p.field ?? ''}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'broken-one.md slug',
        'broken-one.md description',
        'broken-one.md author',
        'broken-one.md date',
        'broken-one.md locale',
        'broken-one.md entities',
        'broken-two.md ',
      ]),
    );
    const after = await stat(path.join(out, 'index.html'));
    expect(after.mtimeMs).toBe(before.mtimeMs);
    const siblings = await readdir(path.dirname(out));
    expect(siblings.sort()).toEqual(['dist', 'dist.releases']);
    // The one release dist/ links to, and no staging folder.
    expect(await readdir(`${out}.releases`)).toHaveLength(1);
  });
});

describe('counting pages for progress', () => {
  it('knows how many pages a build makes before making them', async () => {
    const { loadContent } = await import('../../site/content/loadContent.ts');
    const { loadMessages } = await import('../../site/i18n/loadMessages.ts');
    const { buildSiteModel } = await import('../../site/model/siteModel.ts');
    const { allPages, countPages } = await import('../../site/routes/routes.ts');
    const model = buildSiteModel(await loadContent(FIXTURE_SITE), { messages: await loadMessages() });
    expect(countPages(model)).toBe([...allPages(model)].length);
  });
});
