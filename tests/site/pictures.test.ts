/**
 * Issue 18 item 7: every article has a cover, drawn at build time and served
 * as that SVG (or the model provider's picture, served in AVIF and WebP at
 * three widths), with its box reserved, and a 1200 × 630 JPEG share card as
 * og:image: the card its subcategory's articles share (issue 13: one raster
 * per article cost 7 ms of CPU each), or its picture's own. The drawn covers
 * are their subcategory's too (issue 13: one file per article was a fifth of
 * the files a build makes), 64 of them, taken in turn, so that no page shows
 * one twice.
 * Builds of the fixture site, read as a visitor's browser and a crawler
 * would: the HTML's tags and the image files they name.
 */
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { FeltError } from '../../shared/errors.ts';
import { FIXTURE_SITE, fixtureCopy, tempDir } from './helpers.ts';
import { writeCorpus } from '../../bench/corpus.mjs';
import { CARD_VARIANTS } from '../../site/pictures/shareCards.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const WIDTHS = [320, 640, 960];

/** The attributes of every element `tag` in `html`, in order. */
function elements(html: string, tag: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!.toLowerCase(), a[2] ?? ''])),
  );
}

/** The <picture> elements of a page with their class, sources and img. */
function pictures(html: string) {
  return [...html.matchAll(/<picture class="([^"]+)">(.*?)<\/picture>/gs)].map((m) => ({
    className: m[1]!,
    sources: elements(m[2]!, 'source'),
    img: elements(m[2]!, 'img')[0]!,
  }));
}

/** A subcategory's drawn cover (site/pictures/drawnCovers.ts). */
const SHARED_COVER = /^\/images\/covers\/[a-z0-9-]+\/[a-z0-9-]+-\d+\.svg$/;

/** The drawn cover an article page shows. */
function articleCover(html: string): string {
  return svgCovers(html).find((p) => p.className === 'article-cover')!.img.src!;
}

/** The generated covers of a page: the box of a cover class around one <img>. */
function svgCovers(html: string) {
  return [...html.matchAll(/<div class="(card-cover|article-cover)">(<img\b[^>]*>)<\/div>/g)].map((m) => ({
    className: m[1]!,
    img: elements(m[2]!, 'img')[0]!,
  }));
}

function metaContent(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(html)?.[1];
}

async function imageFiles(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(path.join(dir, 'images'), { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.set(path.relative(dir, path.join(entry.parentPath, entry.name)), await readFile(path.join(entry.parentPath, entry.name)));
  }
  return files;
}

describe('covers of the fixture site', () => {
  let out: string;
  const read = (file: string) => readFile(path.join(out, file), 'utf8');

  beforeAll(async () => {
    // Listings of several articles a page, to see the covers below the first one.
    const settings = await readFile(path.join(FIXTURE_SITE, 'site.json'), 'utf8');
    const content = await fixtureCopy({ 'site.json': settings.replace('"pageSize": 1', '"pageSize": 10') });
    out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW, incremental: false });
  });

  it('puts the cover on the article page: its SVG in a box set to 1200 × 630, fetched first, decorative', async () => {
    const html = await read('articles/first-steps/index.html');
    const [cover, ...others] = svgCovers(html).filter((p) => p.className === 'article-cover');
    expect(others).toEqual([]);
    expect(cover!.img).toEqual({ src: expect.stringMatching(SHARED_COVER), width: '1200', height: '630', alt: '', decoding: 'async', fetchpriority: 'high' });
    // first-steps is filed under bettingStrategies / fundamentalBettingStrategies: one of that subcategory's covers.
    expect(cover!.img.src).toMatch(/^\/images\/covers\/betting-strategies\/fundamental-betting-strategies-\d+\.svg$/);
    // One file at every width: no <picture>, no srcset, no raster of a generated cover.
    expect(pictures(html)).toEqual([]);
    expect(html).not.toContain('srcset');
    // The cover comes before the article's body, at the top of the page.
    expect(html.indexOf('article-cover')).toBeLessThan(html.indexOf('article-body'));
  });

  it('writes the SVG it names: 1200 × 630, shapes only (no text, script, link or handler)', async () => {
    for (const slug of ['first-steps', 'poker-basics', 'table-talk']) {
      const file = path.join(out, articleCover(await read(`articles/${slug}/index.html`)));
      const meta = await sharp(file).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'svg', width: 1200, height: 630 });
      const svg = await readFile(file, 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="630" viewBox="0 0 1200 630">/);
      const tags = new Set([...svg.matchAll(/<([a-zA-Z]+)/g)].map((m) => m[1]!));
      expect([...tags].filter((tag) => !['svg', 'rect', 'path', 'circle', 'ellipse', 'line', 'polygon', 'polyline', 'g'].includes(tag))).toEqual([]);
      expect(svg).not.toMatch(/\son\w+=|href|url\(|<text|<script|<foreignObject/i);
    }
    const covers = await readdir(path.join(out, 'images/covers'), { withFileTypes: true, recursive: true });
    expect(covers.filter((entry) => entry.isFile() && !entry.name.endsWith('.svg'))).toEqual([]);
  });

  it('shows covers on the cards of home, listings and related articles: the first at once, the rest lazily', async () => {
    const home = svgCovers(await read('index.html')).filter((p) => p.className === 'card-cover');
    expect(home.length).toBeGreaterThanOrEqual(5);
    expect(home[0]!.img).toMatchObject({ fetchpriority: 'high', alt: '' });
    expect(home[0]!.img.loading).toBeUndefined();
    for (const card of home.slice(1)) expect(card.img).toMatchObject({ loading: 'lazy', alt: '', width: '1200', height: '630' });

    for (const card of home) expect(card.img.src).toMatch(SHARED_COVER);

    const listing = svgCovers(await read('betting-strategies/index.html')).filter((p) => p.className === 'card-cover');
    expect(listing.length).toBeGreaterThanOrEqual(2);
    expect(listing[0]!.img.loading).toBeUndefined();
    expect(listing[0]!.img.fetchpriority).toBeUndefined();
    for (const card of listing.slice(1)) expect(card.img.loading).toBe('lazy');

    const article = await read('articles/first-steps/index.html');
    const related = svgCovers(article.slice(article.indexOf('class="related"'))).filter((p) => p.className === 'card-cover');
    expect(related.length).toBeGreaterThan(0);
    for (const card of related) expect(card.img).toMatchObject({ loading: 'lazy', alt: '' });
  });

  it("gives each article its subcategory's 1200 × 630 JPEG share card as og:image and twitter:image, with its size and alt", async () => {
    const html = await read('articles/first-steps/index.html');
    const image = metaContent(html, 'og:image')!;
    // first-steps is filed under bettingStrategies / fundamentalBettingStrategies: one of that subcategory's cards.
    expect(image).toMatch(/^https:\/\/fixture\.example\/images\/cards\/betting-strategies\/fundamental-betting-strategies-\d+\.jpg$/);
    expect(metaContent(html, 'twitter:image')).toBe(image);
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'og:image:width')).toBe('1200');
    expect(metaContent(html, 'og:image:height')).toBe('630');
    expect(metaContent(html, 'og:image:alt')).toBe('Illustration for “First Steps in Betting”');
    // The JSON-LD names the same picture.
    expect(html).toContain(`"image":"${image}"`);
    const card = await sharp(path.join(out, new URL(image).pathname)).metadata();
    expect({ format: card.format, width: card.width, height: card.height }).toEqual({ format: 'jpeg', width: 1200, height: 630 });
    // Pages that are not articles share the site's card, never the 72 px logo.
    const home = await read('index.html');
    expect(metaContent(home, 'og:image')).toBe('https://fixture.example/images/site-card.jpg');
    const site = await sharp(path.join(out, 'images/site-card.jpg')).metadata();
    expect({ width: site.width, height: site.height }).toEqual({ width: 1200, height: 630 });
    // No card of an article's own: those are for provider pictures.
    await expect(readdir(path.join(out, 'images/og'))).rejects.toThrow(/ENOENT/);
  });

  it('draws a different cover for each article of the fixture', async () => {
    const [a, b, c] = await Promise.all(
      ['first-steps', 'advanced-hedging', 'poker-basics'].map(async (slug) =>
        readFile(path.join(out, articleCover(await read(`articles/${slug}/index.html`)))),
      ),
    );
    expect(a!.equals(b!)).toBe(false);
    expect(a!.equals(c!)).toBe(false);
  });
});

describe('making covers', () => {
  it('makes the same bytes on every cold build', async () => {
    // Two copies of the content: two image caches, so each build draws every cover.
    const first = path.join(await tempDir(), 'dist');
    const second = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: await fixtureCopy(), outDir: first, now: NOW, incremental: false });
    await buildSite({ contentDir: await fixtureCopy(), outDir: second, now: NOW, incremental: false });
    const one = await imageFiles(first);
    const two = await imageFiles(second);
    // Each article's SVG, the cards they show, and the site's card.
    const names = [...one.keys()];
    expect(names.filter((name) => name.startsWith('images/covers/'))).toHaveLength(5);
    expect(names.filter((name) => name.startsWith('images/cards/')).length).toBeGreaterThan(0);
    expect(names.filter((name) => !/^images\/(covers|cards)\//.test(name))).toEqual(['images/site-card.jpg']);
    expect([...two.keys()]).toEqual([...one.keys()]);
    for (const [file, bytes] of one) expect(two.get(file)!.equals(bytes), file).toBe(true);
  });

  it('makes a card once: a new output folder takes it from the image cache, a rebuild keeps the released files', async () => {
    const content = await fixtureCopy();
    const cacheDir = path.join(path.dirname(content), '.felt-cache', 'images');
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const cards = [...(await imageFiles(out)).keys()].filter((name) => name.endsWith('.jpg'));
    const cached = (await readdir(cacheDir, { recursive: true })).filter((f) => f.endsWith('.bin'));
    // One cache entry a card (the site's among them); the SVGs are drawn again, which costs less than reading them.
    expect(cached).toHaveLength(cards.length);

    // A rebuild in place neither makes nor copies an unchanged cover or card: the release keeps the same files.
    const cover = articleCover(await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8'));
    const before = await Promise.all([cover, ...cards].map((f) => stat(path.join(out, f))));
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const after = await Promise.all([cover, ...cards].map((f) => stat(path.join(out, f))));
    expect(after.map((s) => s.ino)).toEqual(before.map((s) => s.ino));

    // Poison the cache: each card's entry holds a 2 × 2 JPEG. A build into a new folder serves
    // what the cache holds, so it read the cache instead of drawing again.
    const poison = await sharp({ create: { width: 2, height: 2, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .jpeg()
      .toBuffer();
    for (const file of cached) {
      const full = path.join(cacheDir, file);
      const data = await readFile(full);
      const header = JSON.parse(data.subarray(4, 4 + data.readUInt32BE(0)).toString()) as { name: string; size: number }[];
      expect(header.map((h) => h.name)).toEqual(['card.jpg']);
      const newHeader = Buffer.from(JSON.stringify([{ name: 'card.jpg', size: poison.length }]));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(newHeader.length);
      await writeFile(full, Buffer.concat([length, newHeader, poison]));
    }
    const fresh = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: fresh, now: NOW });
    for (const card of cards) expect((await readFile(path.join(fresh, card))).equals(poison), card).toBe(true);

    // A cache file cut short is drawn again, not served.
    for (const file of cached) {
      const full = path.join(cacheDir, file);
      await writeFile(full, (await readFile(full)).subarray(0, 30));
    }
    const again = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: again, now: NOW });
    for (const card of cards) expect((await sharp(path.join(again, card)).metadata()).width, card).toBe(1200);
  });

  it("draws the cover of the article's new subcategory when it moves to another category, and no other; its card is that subcategory's", async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const before = await imageFiles(out);
    const file = path.join(content, 'articles/en_US/first-steps.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('category: bettingStrategies', 'category: pokerGuides'));
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const after = await imageFiles(out);
    const changed = [...after].filter(([name, bytes]) => !before.get(name)?.equals(bytes)).map(([name]) => name);
    const card = new URL(metaContent(await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8'), 'og:image')!).pathname.slice(1);
    // Filed under pokerGuides now (its subcategory unknown there: "other").
    expect(card).toMatch(/^images\/cards\/ultimate-poker-guides-strategies\/other-poker-guides-\d+\.jpg$/);
    // Its new subcategory's cover, and the card only if no article showed it before.
    const cover = articleCover(await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8'));
    expect(cover).toMatch(/^\/images\/covers\/ultimate-poker-guides-strategies\/other-poker-guides-\d+\.svg$/);
    expect(changed.filter((name) => name !== card)).toEqual([cover.slice(1)]);
    expect(after.has(card)).toBe(true);
  });
});

describe('share cards at any number of articles', () => {
  it('makes at most (subcategories × variants + 1) card files, whatever the number of articles', async () => {
    const content = path.join(await tempDir(), 'content');
    const articles = await writeCorpus(content, 400);
    const categories = JSON.parse(await readFile(path.join(content, 'categories.json'), 'utf8')) as Record<string, { children: object }>;
    const subcategories = Object.values(categories).reduce((n, c) => n + Object.keys(c.children).length, 0);
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW, incremental: false });

    const files = [...(await imageFiles(out)).keys()];
    const jpegs = files.filter((name) => name.endsWith('.jpg'));
    // Fewer than 64 articles in any subcategory: a cover each.
    expect(files.filter((name) => name.endsWith('.svg'))).toHaveLength(articles.length);
    expect(jpegs.length).toBeLessThanOrEqual(subcategories * CARD_VARIANTS + 1);
    // Far fewer cards than articles, and every article's og:image names one of them.
    expect(jpegs.length).toBeLessThan(articles.length / 2);
    const shown = new Set<string>();
    for (const { slug } of articles) {
      const image = metaContent(await readFile(path.join(out, `articles/${slug}/index.html`), 'utf8'), 'og:image')!;
      shown.add(new URL(image).pathname.slice(1));
    }
    shown.add('images/site-card.jpg');
    expect(new Set(jpegs)).toEqual(shown);
  });
});

describe('drawn covers at any number of articles', () => {
  /** The drawn covers a page shows, in order. */
  const shownOn = async (out: string, page: string) => svgCovers(await readFile(path.join(out, page, 'index.html'), 'utf8')).map((c) => c.img.src!);

  it('gives the articles of a subcategory 64 covers in turn (twice the page size, if more): one file each, none twice on a listing page or among related articles', async () => {
    const content = path.join(await tempDir(), 'content');
    const articles = await writeCorpus(content, 150);
    // Every article in one subcategory: 150 articles, more than its 64 covers.
    for (const { slug } of articles) {
      const file = path.join(content, 'articles', 'en_US', `${slug}.md`);
      const text = await readFile(file, 'utf8');
      await writeFile(
        file,
        text.replace(/category: \w+/, 'category: bettingStrategies').replace(/subcategory: \w+/, 'subcategory: fundamentalBettingStrategies'),
      );
    }
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW, incremental: false });

    const svgs = [...(await imageFiles(out)).keys()].filter((name) => name.endsWith('.svg')).sort();
    expect(svgs).toEqual(Array.from({ length: 64 }, (_, i) => `images/covers/betting-strategies/fundamental-betting-strategies-${i}.svg`).sort());
    // Each file is another drawing.
    const drawings = new Set(await Promise.all(svgs.map((name) => readFile(path.join(out, name), 'utf8'))));
    expect(drawings.size).toBe(64);

    // Every article shows one of them, and the listings (16 to 31 cards a page) never show one twice.
    const covers = new Map<string, string>();
    for (const { slug } of articles) covers.set(slug, await shownOn(out, `articles/${slug}`).then((shown) => shown[0]!));
    for (const cover of covers.values()) expect(svgs).toContain(cover.slice(1));
    for (const listing of [
      'betting-strategies',
      'betting-strategies/fundamental-betting-strategies',
      'betting-strategies/fundamental-betting-strategies/page/3',
    ]) {
      const shown = await shownOn(out, listing);
      expect(shown.length, listing).toBeGreaterThanOrEqual(10);
      expect(new Set(shown).size, listing).toBe(shown.length);
    }
    // An article's page: its cover, then its related articles' (its neighbours), all different.
    for (const { slug } of articles.slice(0, 20)) {
      const shown = await shownOn(out, `articles/${slug}`);
      expect(shown.length).toBeGreaterThan(1);
      expect(new Set(shown).size, slug).toBe(shown.length);
    }

    // Listings of 40 a page: a front page of up to 79 cards, and 80 covers, none shown twice there.
    const settings = path.join(content, 'site.json');
    await writeFile(settings, (await readFile(settings, 'utf8')).replace(/"pageSize": \d+/, '"pageSize": 40'));
    const wide = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: wide, now: NOW, incremental: false });
    expect([...(await imageFiles(wide)).keys()].filter((name) => name.endsWith('.svg'))).toHaveLength(80);
    for (const listing of ['betting-strategies', 'betting-strategies/fundamental-betting-strategies']) {
      const shown = await shownOn(wide, listing);
      expect(shown.length, listing).toBeGreaterThan(64);
      expect(new Set(shown).size, listing).toBe(shown.length);
    }
  });

  it('keeps every cover where it was when newer articles arrive, and moves them, whole, when an older one does', async () => {
    const content = path.join(await tempDir(), 'content');
    const articles = await writeCorpus(content, 100);
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const coversOf = async () => new Map(await Promise.all(articles.map(async ({ slug }) => [slug, (await shownOn(out, `articles/${slug}`))[0]!] as const)));
    const before = await coversOf();

    // Newer articles (dated after the whole corpus, as a night's are): no article had its cover moved.
    await writeCorpus(content, 20, { offset: 100, fresh: true });
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    expect(await coversOf()).toEqual(before);

    // An article older than all the others, in a subcategory that has articles: the newer ones there move by one.
    const [first] = articles;
    const file = path.join(content, 'articles', 'en_US', 'article-000999.md');
    const source = await readFile(path.join(content, 'articles', 'en_US', `${first!.slug}.md`), 'utf8');
    await writeFile(
      file,
      source
        .replace(`slug: ${first!.slug}`, 'slug: article-000999')
        .replace('title: "', 'title: "Older: ')
        .replace(/date: [\d-]+/, 'date: 2019-01-01'),
    );
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const after = await coversOf();
    const moved = [...after].filter(([slug, cover]) => before.get(slug) !== cover).map(([slug]) => slug);
    const sameSubcategory = articles.filter((a) => a.category === first!.category && a.subcategory === first!.subcategory).map((a) => a.slug);
    expect(moved.sort()).toEqual(sameSubcategory.sort());
    // And the site is the one a cold build of the same content makes.
    const cold = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: cold, now: NOW, incremental: false });
    for (const { slug } of [...articles, { slug: 'article-000999' }]) {
      const page = `articles/${slug}/index.html`;
      expect(await readFile(path.join(out, page), 'utf8'), page).toBe(await readFile(path.join(cold, page), 'utf8'));
    }
    for (const listing of ['betting-strategies', '']) {
      const page = path.join(listing, 'index.html');
      expect(await readFile(path.join(out, page), 'utf8'), page).toBe(await readFile(path.join(cold, page), 'utf8'));
    }
  });
});

describe("the model provider's pictures", () => {
  /** A 800 × 600 PNG of one colour. */
  const png = (r: number, g: number, b: number) =>
    sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer();

  it('shows content/images/{locale}/{slug}.png as the cover, AVIF then WebP at three widths, with alt text, after a rebuild too', async () => {
    const content = await fixtureCopy();
    const out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const drawn = articleCover(await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8'));
    await mkdir(path.join(content, 'images/en_US'), { recursive: true });
    await writeFile(path.join(content, 'images/en_US/first-steps.png'), await png(200, 20, 30));
    await buildSite({ contentDir: content, outDir: out, now: NOW });

    const { data } = await sharp(path.join(out, 'images/covers/first-steps-640.webp')).raw().toBuffer({ resolveWithObject: true });
    const [r, g, b] = [data[0]!, data[1]!, data[2]!];
    expect(Math.abs(r - 200) + Math.abs(g - 20) + Math.abs(b - 30)).toBeLessThan(30);
    const card = await sharp(path.join(out, 'images/og/first-steps.jpg')).metadata();
    expect({ width: card.width, height: card.height }).toEqual({ width: 1200, height: 630 });
    // Its share card is its own, made from the picture.
    const page = await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8');
    expect(metaContent(page, 'og:image')).toBe('https://fixture.example/images/og/first-steps.jpg');
    // A picture of the subject is not decorative: it gets the article's alt text, in the page's language.
    const html = await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8');
    const cover = pictures(html).find((p) => p.className === 'article-cover')!;
    expect(cover.img.alt).toBe('Illustration for “First Steps in Betting”');
    expect(cover.img).toMatchObject({ width: '1200', height: '630', fetchpriority: 'high' });
    expect(cover.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    for (const [i, format] of ['avif', 'webp'].entries()) {
      expect(cover.sources[i]!.srcset).toBe(WIDTHS.map((w) => `/images/covers/first-steps-${w}.${format} ${w}w`).join(', '));
      expect(cover.sources[i]!.sizes).toBeTruthy();
    }
    for (const width of WIDTHS) {
      for (const format of ['avif', 'webp'] as const) {
        const meta = await sharp(path.join(out, `images/covers/first-steps-${width}.${format}`)).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
          format: format === 'avif' ? 'heif' : 'webp',
          width,
          height: Math.round((width * 630) / 1200),
        });
      }
    }
    // The listings that show it (rebuilt incrementally) show the picture too; the others keep their drawn SVGs.
    const home = await readFile(path.join(out, 'index.html'), 'utf8');
    const shown = pictures(home).map((p) => p.img.src);
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown)).toEqual(new Set(['/images/covers/first-steps-640.webp']));
    expect(svgCovers(home).map((c) => c.img.src)).not.toContain(drawn);
    expect(svgCovers(home).length).toBeGreaterThan(0);

    // Removed again: the drawn cover and alt="" come back.
    await rm(path.join(content, 'images/en_US/first-steps.png'));
    await buildSite({ contentDir: content, outDir: out, now: NOW });
    const back = svgCovers(await readFile(path.join(out, 'articles/first-steps/index.html'), 'utf8')).find((p) => p.className === 'article-cover')!;
    expect(back.img).toMatchObject({ src: drawn, alt: '' });
  });

  it('stops the build at a picture that is not an image, naming the file', async () => {
    const content = await fixtureCopy();
    await mkdir(path.join(content, 'images/en_US'), { recursive: true });
    const bad = path.join(content, 'images/en_US/first-steps.png');
    await writeFile(bad, 'not a png');
    const error = await buildSite({ contentDir: content, outDir: path.join(await tempDir(), 'dist'), now: NOW, incremental: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeltError);
    expect((error as FeltError).code).toBe('PICTURE_INVALID');
    expect((error as FeltError).message).toContain(bad);
  });
});
