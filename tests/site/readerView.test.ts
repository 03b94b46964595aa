/**
 * Issue 18, "Broken" items 2, 3, 4 and 6 (ads) as the built markup shows
 * them: SPEC section 5's display rules where names from keys and topics are
 * shown, the update date under "Updated Articles", emoji only where they
 * decorate, no advertising on the error pages and no English sponsored copy
 * on a site in another language.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { contentProblems, fixtureCopy, tempDir } from './helpers.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const EMOJI = /\p{Extended_Pictographic}/u;

const DEFI_ARTICLE = `---
title: Wallets for Betting
slug: defi-wallets-guide
description: Which wallets a bettor can use.
author: Mara Lindqvist
date: 2026-03-01
updated: 2026-06-15
locale: en_US
entities:
  - category: bettingStrategies
    subcategories:
      - subcategory: advancedBettingTechniques
        subsubcategories: ["defi wallets", "nft art", "RTP", "stakingPlans"]
---
Body text.
`;

const ADS = {
  sapeNewUrl: '<a href="https://en.example/">English new url copy</a>',
  sapeLinks: { '/': ['<a href="https://en.example/home">English home link</a>'], '/404.html': ['<a href="https://en.example/x">English 404 link</a>'] },
  ru: { sapeNewUrl: '<a href="https://ru.example/">Русская реклама</a>', sapeLinks: { '/': ['<a href="https://ru.example/home">Русская ссылка</a>'] } },
};

async function htmlFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(full, base)));
    else if (entry.name.endsWith('.html') || entry.name.endsWith('.xml')) out.push(path.relative(base, full));
  }
  return out.sort();
}

const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => m[1]!);
const between = (html: string, start: string, end: string) => html.slice(html.indexOf(start), html.indexOf(end, html.indexOf(start)));

let content: string;
let en: string;
const read = (file: string, out = en) => readFile(path.join(out, file), 'utf8');

beforeAll(async () => {
  content = await fixtureCopy({ 'ads.json': JSON.stringify(ADS) });
  // A configured title spelled "defi and nft": the menu, the topics and the trail show the fixed spelling.
  const categoriesFile = path.join(content, 'categories.json');
  const categories = (await readFile(categoriesFile, 'utf8')).replace('"en": "🧠 Advanced Betting Techniques"', '"en": "🧠 defi and nft Techniques"');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(categoriesFile, categories);
  await writeFile(path.join(content, 'articles/en_US/defi-wallets-guide.md'), DEFI_ARTICLE);
  en = path.join(await tempDir(), 'dist');
  await buildSite({ contentDir: content, outDir: en, now: NOW });
});

describe('SPEC section 5 display rules (item 2)', () => {
  it('shows topics title-cased with "DeFi" and "NFT", acronyms kept, keys spaced', async () => {
    const html = await read('articles/defi-wallets-guide/index.html');
    const tags = between(html, 'class="tags"', '</section>');
    expect([...tags.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1])).toEqual(['DeFi Wallets', 'NFT Art', 'RTP', 'Staking Plans']);
    expect(jsonLd(html).join('')).toContain('"keywords":"DeFi Wallets, NFT Art, RTP, Staking Plans"');
  });

  it('shows a subcategory name the categories do not know as a topic of the article filed under "other"', async () => {
    const html = await read('articles/crypto-books/index.html');
    expect(between(html, 'class="breadcrumbs"', '</nav>')).toContain('Other');
    expect([...between(html, 'class="tags"', '</section>').matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1])).toEqual(['Crypto Sportsbooks']);
  });

  it('fixes "DeFi" and "NFT" in configured names: breadcrumbs, topics, the menu and its search groups', async () => {
    const article = await read('articles/defi-wallets-guide/index.html');
    expect(between(article, 'class="breadcrumbs"', '</nav>')).toContain('DeFi and NFT Techniques');
    const listing = await read('betting-strategies/index.html');
    expect(between(listing, 'class="topics"', '</nav>')).toContain('DeFi and NFT Techniques');
    expect(between(article, 'id="site-header"', '</header>')).toContain('DeFi and NFT Techniques');
    const sq = (await readdir(path.join(en, 'page-data/sq/d')))[0]!;
    const shared = await read(`page-data/sq/d/${sq}`);
    expect(shared).toContain('DeFi and NFT Techniques');
    expect(shared).not.toContain('defi and nft');
  });
});

describe('"Updated Articles" (item 3)', () => {
  it('shows when each article was updated, not when it was published', async () => {
    const home = await read('index.html');
    const section = between(home, 'aria-labelledby="home-updated"', '</section>');
    expect(section).toContain('Wallets for Betting');
    expect(section).toContain('<time dateTime="2026-06-15">June 15, 2026</time>');
    expect(section).not.toContain('2026-03-01');
    expect(section).toContain('<time dateTime="2026-02-01">');
  });
});

describe('emoji where they decorate only (item 4)', () => {
  it('leaves them out of every <title>, JSON-LD block, feed and breadcrumb trail', async () => {
    const leaks: string[] = [];
    for (const file of await htmlFiles(en)) {
      const text = await read(file);
      if (file.endsWith('.xml')) {
        if (EMOJI.test(text.replace(/<description>.*?<\/description>/gs, ''))) leaks.push(`${file}: feed`);
        continue;
      }
      if (EMOJI.test(between(text, '<title>', '</title>'))) leaks.push(`${file}: <title>`);
      for (const [name, value] of [...text.matchAll(/<meta (?:name|property)="((?:og|twitter):title)" content="([^"]*)"/g)].map((m) => [m[1], m[2]])) {
        if (EMOJI.test(value!)) leaks.push(`${file}: ${name}`);
      }
      for (const block of jsonLd(text)) {
        const names = JSON.stringify(JSON.parse(block), (key, value: unknown) => (key === 'description' ? undefined : value));
        if (EMOJI.test(names)) leaks.push(`${file}: JSON-LD`);
      }
      if (text.includes('class="breadcrumbs"') && EMOJI.test(between(text, 'class="breadcrumbs"', '</nav>'))) leaks.push(`${file}: breadcrumbs`);
    }
    expect(leaks).toEqual([]);
    // The listing's title and trail read the category's name alone.
    const listing = await read('betting-strategies/index.html');
    expect(between(listing, '<title>', '</title>')).toBe('<title>Betting Strategies | Fixture Table');
  });

  it('keeps them on the cards and in the menu', async () => {
    const home = await read('index.html');
    expect(between(home, 'class="card-kicker"', '</a>')).toMatch(EMOJI);
    expect(between(home, 'class="menu-category-title"', '</a>')).toMatch(EMOJI);
  });
});

describe('advertising (item 6)', () => {
  it('leaves the 404 and 500 pages without any sponsored copy', async () => {
    for (const file of ['404.html', '500.html']) {
      const html = await read(file);
      expect(html).not.toContain('en.example');
      expect(html).not.toContain('class="new-url"');
    }
    expect(await read('index.html')).toContain('English new url copy');
  });

  it('shows a Russian site its own copy, and a Korean one none rather than English', async () => {
    const ru = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: ru, now: NOW, locale: 'ru_RU' });
    const ruHome = await read('index.html', ru);
    expect(ruHome).toContain('Русская реклама');
    expect(ruHome).toContain('Русская ссылка');
    expect(ruHome).not.toContain('en.example');
    const ko = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: content, outDir: ko, now: NOW, ui: 'ko' });
    const koHome = await read('index.html', ko);
    expect(koHome).not.toContain('en.example');
    expect(koHome).not.toContain('class="new-url"');
  });

  it("checks a language's own copy as strictly as the English one, naming its field", async () => {
    const dir = await fixtureCopy({ 'ads.json': JSON.stringify({ sapeLinks: {}, tr: { sapeLinks: { 'no-slash': [] } } }, null, 2) });
    expect(await contentProblems(dir)).toContainEqual(expect.stringMatching(/ads\.json:\d+ field "tr\.sapeLinks\.no-slash"/));
  });
});
