/**
 * Route collisions (site/routes/collisions.ts): a slug whose route writes a
 * file another route or the build itself writes is one problem naming both
 * owners, reported the same by `felt check` and `felt build`, and the build
 * refuses it before writing anything. Slugs no route collides with build.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentError, formatProblem, type Problem } from '../../shared/errors.ts';
import { buildSite } from '../../site/build/build.ts';
import { checkContent } from '../../site/content/check.ts';
import { FIXTURE_SITE, fixtureCopy, tempDir } from './helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape, edited in place by each test
type Json = Record<string, any>;

/** A copy of the fixture site with its categories.json and authors.json edited. */
async function siteWith(edit: { categories?: (c: Json) => void; authors?: (a: Json[]) => void }, files: Record<string, string> = {}): Promise<string> {
  const categories = JSON.parse(await readFile(path.join(FIXTURE_SITE, 'categories.json'), 'utf8'));
  const authors = JSON.parse(await readFile(path.join(FIXTURE_SITE, 'authors.json'), 'utf8'));
  edit.categories?.(categories);
  edit.authors?.(authors);
  return fixtureCopy({ 'categories.json': JSON.stringify(categories, null, 2), 'authors.json': JSON.stringify(authors, null, 2), ...files });
}

async function build(content: string): Promise<{ out: string; problems?: Problem[] }> {
  const out = path.join(await tempDir('felt-collisions-'), 'dist');
  try {
    await buildSite({ contentDir: content, outDir: out, threads: 1, incremental: false });
    return { out };
  } catch (error) {
    if (error instanceof ContentError) return { out, problems: error.problems };
    throw error;
  }
}

/** What a problem says, without the line number only `felt check` adds. */
const said = (p: Problem) => formatProblem({ ...p, line: undefined });

/** build and check agree, the build wrote nothing; the problems as printed. */
async function refused(content: string): Promise<string[]> {
  const { out, problems } = await build(content);
  expect(problems, 'the build should refuse').toBeDefined();
  expect(await stat(out).catch(() => undefined), 'nothing written').toBeUndefined();
  const report = await checkContent({ contentDir: content });
  const checked = report.problems.filter((p) => p.severity === 'error').map(said);
  expect(checked).toEqual(problems!.map(said));
  return checked;
}

describe('route collisions', () => {
  it('refuses a category slug "404": its page data is the 404 page\'s', async () => {
    const content = await siteWith({ categories: (c) => void (c.bettingStrategies.slug = '404') });
    expect(await refused(content)).toEqual([
      expect.stringMatching(
        /categories\.json field "bettingStrategies\.slug": category "404" and the 404 page both write page-data\/404\/page-data\.json \(rename the category slug\)$/,
      ),
    ]);
  });

  it('refuses a category slug "index": its page data is the home page\'s', async () => {
    const content = await siteWith({ categories: (c) => void (c.pokerGuides.slug = 'index') });
    expect(await refused(content)).toEqual([
      expect.stringMatching(/field "pokerGuides\.slug": category "index" and the home page both write page-data\/index\/page-data\.json/),
    ]);
  });

  it('refuses a category in a folder of the build: "search" would be cached as immutable with the search index', async () => {
    const content = await siteWith({ categories: (c) => void (c.pokerGuides.slug = 'search') });
    expect(await refused(content)).toEqual([
      // Its subcategories are in search/ because it is: its problems, not one per subcategory.
      expect.stringMatching(
        /field "pokerGuides\.slug": category "search" writes search\/page\/2\/index\.html into search\/, which holds the search index, cached as immutable \(rename the category slug\)$/,
      ),
      // search/index.html is the search results page's (issue 18).
      expect.stringMatching(/field "pokerGuides\.slug": category "search" and the search results page both write search\/index\.html/),
    ]);
  });

  it("refuses a subcategory whose route is an article's, naming both files", async () => {
    const content = await siteWith({
      categories: (c) => void ((c.pokerGuides.slug = 'articles'), (c.pokerGuides.children.beginnerPokerTips.slug = 'poker-basics')),
    });
    expect(await refused(content)).toEqual([
      expect.stringMatching(
        /categories\.json field "pokerGuides\.children\.beginnerPokerTips\.slug": subcategory "articles\/poker-basics" and article "poker-basics" \(\S*articles\/en_US\/poker-basics\.md\) both write articles\/poker-basics\/index\.html and page-data\/articles\/poker-basics\/page-data\.json \(rename the subcategory slug or the article slug \(and its file name\)\)$/,
      ),
    ]);
  });

  it("refuses a subcategory whose route is an info page's", async () => {
    const content = await siteWith({ categories: (c) => void ((c.pokerGuides.slug = 'info'), (c.pokerGuides.children.beginnerPokerTips.slug = 'about-us')) });
    expect(await refused(content)).toEqual([
      expect.stringMatching(
        /subcategory "info\/about-us" and the about-us page both write info\/about-us\/index\.html and page-data\/info\/about-us\/page-data\.json/,
      ),
    ]);
  });

  it('reports every collision at once, one problem each', async () => {
    const content = await siteWith({
      categories: (c) =>
        void ((c.bettingStrategies.slug = '404'), (c.pokerGuides.slug = 'authors'), (c.pokerGuides.children.beginnerPokerTips.slug = 'mara-lindqvist')),
    });
    const problems = await refused(content);
    expect(problems).toHaveLength(3);
    expect(problems).toContainEqual(expect.stringMatching(/category "404" and the 404 page both write/));
    // Two files, one pair of owners: one problem.
    expect(problems).toContainEqual(
      expect.stringMatching(/category "authors" and the authors page both write authors\/index\.html and page-data\/authors\/page-data\.json/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /field "pokerGuides\.children\.beginnerPokerTips\.slug": subcategory "authors\/mara-lindqvist" and author "Mara Lindqvist" \(\S*authors\.json\) both write/,
      ),
    );
  });

  it('still names both files when two articles share a slug', async () => {
    const poker = await readFile(path.join(FIXTURE_SITE, 'articles/en_US/poker-basics.md'), 'utf8');
    const content = await siteWith({}, { 'articles/en_US/poker-basics-copy.md': poker });
    const { problems } = await build(content);
    const lines = problems!.map(formatProblem);
    expect(lines).toContainEqual(
      expect.stringMatching(/poker-basics-copy\.md:3 field "slug": slug "poker-basics" is used by 2 articles: \S*poker-basics-copy\.md, \S*poker-basics\.md/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/poker-basics\.md:3 field "slug": slug "poker-basics" is used by 2 articles/));
  });

  it('links the oldest of two articles of one locale sharing a translationKey, the other to none, and felt check warns of both', async () => {
    // Each was another hreflang alternate for one language (which search engines drop as conflicting), and a new
    // article could put itself on the pages of an older one's translations.
    const first = await readFile(path.join(FIXTURE_SITE, 'articles/en_US/first-steps.md'), 'utf8');
    const again = first
      .replace('slug: first-steps', 'slug: first-steps-again')
      .replace('title: First Steps in Betting', 'title: First Steps, Again')
      .replace('date: 2026-01-10', 'date: 2026-03-01')
      .replace('updated: 2026-02-01', 'updated: 2026-03-02');
    const content = await siteWith({}, { 'articles/en_US/first-steps-again.md': again });
    const { out, problems } = await build(content);
    expect(problems).toBeUndefined();
    const alternates = async (page: string) =>
      [...(await readFile(path.join(out, page, 'index.html'), 'utf8')).matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map(
        ([, lang, href]) => `${lang} ${new URL(href!).pathname}`,
      );
    expect(await alternates('articles/first-steps')).toEqual(['en-US /articles/first-steps', 'ru-RU /articles/pervye-shagi']);
    expect(await alternates('articles/first-steps-again')).toEqual([]);
    const report = await checkContent({ contentDir: content });
    expect(report.errors).toBe(0);
    const shared = report.problems.filter((p) => p.field === 'translationKey');
    expect(shared.map((p) => [path.basename(p.file), p.severity]).sort()).toEqual([
      ['first-steps-again.md', 'warning'],
      ['first-steps.md', 'warning'],
    ]);
    for (const problem of shared) {
      expect(formatProblem(problem)).toMatch(
        /first-steps(-again)?\.md:9 field "translationKey": translationKey "first-steps" is used by 2 articles of one locale: \S*first-steps\.md, \S*first-steps-again\.md; the oldest, \S*first-steps\.md, is linked as its translation, the other to none/,
      );
    }
  });

  it('builds slugs that no route collides with, whatever they are called', async () => {
    // "articles" and "page" were on a hand-kept reserved list; the routes they make collide with nothing.
    const content = await siteWith({
      categories: (c) =>
        void (
          (c.pokerGuides.slug = 'articles'),
          (c.bettingStrategies.children.fundamentalBettingStrategies.slug = 'page'),
          (c.bettingStrategies.children.advancedBettingTechniques.slug = '500')
        ),
      authors: (a) => void ((a[0]!.slug = 'page'), (a[1]!.slug = 'feed')),
    });
    const { out, problems } = await build(content);
    expect(problems?.map(formatProblem)).toBeUndefined();
    const dataOf = async (file: string) => JSON.parse(await readFile(path.join(out, file), 'utf8'));
    expect((await dataOf('page-data/articles/page-data.json')).componentChunkName).toBe('component---category');
    expect((await dataOf('page-data/articles/poker-basics/page-data.json')).componentChunkName).toBe('component---article');
    expect((await dataOf('page-data/betting-strategies/page/page-data.json')).componentChunkName).toBe('component---subcategory');
    expect((await dataOf('page-data/betting-strategies/page/1/page-data.json')).componentChunkName).toBe('component---category');
    // A subcategory "500" lives at /betting-strategies/500: the 500 page keeps its own files.
    expect((await dataOf('page-data/500/page-data.json')).componentChunkName).toBe('component---serverError');
    expect((await dataOf('page-data/betting-strategies/500/page-data.json')).componentChunkName).toBe('component---subcategory');
    expect((await dataOf('page-data/authors/page/page-data.json')).componentChunkName).toBe('component---author');
    expect((await dataOf('page-data/authors/feed/page-data.json')).componentChunkName).toBe('component---author');
  });

  it('knows every file a build writes before rendering', async () => {
    const { loadContent } = await import('../../site/content/loadContent.ts');
    const { buildSiteModel } = await import('../../site/model/siteModel.ts');
    const { loadMessages } = await import('../../site/i18n/loadMessages.ts');
    const { BUILD_FOLDERS, claimOutputs } = await import('../../site/routes/outputs.ts');
    const { out } = await build(FIXTURE_SITE);
    const model = buildSiteModel(await loadContent(FIXTURE_SITE), { messages: await loadMessages() });
    const claimed = new Set<string>();
    claimOutputs(model, (file) => void claimed.add(file));
    const written = (await readdir(out, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(out, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    const unclaimed = written.filter((file) => !claimed.has(file) && !BUILD_FOLDERS.some((f) => !f.admitsPageData && file.startsWith(f.folder)));
    expect(unclaimed).toEqual([]);
    // And nothing is claimed that the build does not write.
    expect([...claimed].filter((file) => !written.includes(file))).toEqual([]);
  });
});
