/**
 * A small project in a temp folder: content/ with site settings, three
 * categories (one with a third level), three authors and, optionally, a few
 * articles. Local buckets go to {root}/.buckets. Nothing touches the
 * repository's own content/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Fixture {
  root: string;
  contentDir: string;
  cleanup(): Promise<void>;
}

const loc = (en: string) => ({ en, tr: en, ru: en, ko: en });
const node = (slug: string, title: string, children: Record<string, unknown> | null = null) => ({
  slug,
  title: loc(title),
  description: loc(`${title} 💰`),
  children,
});

export const FIXTURE_CATEGORIES = {
  bettingStrategies: node('betting-strategies', '💰 Betting Strategies', {
    bankrollManagement: node('bankroll-management', 'Bankroll Management', {
      kellyCriterion: node('kelly-criterion', 'Kelly Criterion'),
      unitSizing: node('unit-sizing', 'Unit Sizing'),
    }),
    bettingOddsExplained: node('betting-odds-explained', 'Betting Odds Explained'),
    other: node('other-betting-strategies', 'Other'),
  }),
  pokerGuides: node('ultimate-poker-guides-strategies', '♠️ Poker Guides', {
    beginnerPokerTips: node('beginner-poker-tips', 'Beginner Poker Tips'),
    other: node('other-poker-guides', 'Other'),
  }),
  gamblingResponsible: node('understanding-responsible-gambling', '🎲 Responsible Gambling', {
    settingLimitsForYourself: node('setting-limits-for-yourself', 'Setting Limits'),
    other: node('other-responsible-gambling', 'Other'),
  }),
};

export const FIXTURE_AUTHORS = ['Mara Lindqvist', 'Emre Kaplan', 'Irina Petrova'].map((name) => ({
  name,
  slug: name.toLowerCase().replace(/ /g, '-'),
  description: `${name} writes about poker.`,
  meta_title: `${name} | Felt`,
  meta_description: `Articles by ${name}.`,
}));

export function siteSettings(extra: Record<string, unknown> = {}) {
  return {
    title: 'Felt Magazine',
    tagline: loc('Smarter play'),
    brand: 'felt',
    url: 'https://feltmagazine.example',
    email: 'editors@feltmagazine.example',
    social: { video: 'https://video.example/felt', social: 'https://social.example/felt', photo: 'https://photo.example/felt' },
    locale: 'en_US',
    home: { moreAwesomeStuff: 4, ourBestStories: 12, updatedArticles: 4, pageSize: 16, perCategory: 2 },
    sponsored: { style: 'list', limit: 6 },
    storage: { prefix: 'felt-test', backend: 'local', localRoot: '.buckets' },
    proxy: { allow: [] },
    generation: { model: 'gpt-4o-mini', prices: { 'gpt-4o-mini': { input: 0.15, output: 0.6 } } },
    ...extra,
  };
}

export function articleSource(slug: string, title: string, locale = 'en_US', body = 'Intro.\n\n## One\n\nText.\n'): string {
  return `---\ntitle: "${title}"\nslug: ${slug}\ndescription: "About ${title}."\nauthor: Mara Lindqvist\ndate: 2026-01-02\nlocale: ${locale}\nentities:\n  - category: pokerGuides\n---\n\n${body}`;
}

export async function makeFixture(options: { articles?: Record<string, string>; settings?: Record<string, unknown> } = {}): Promise<Fixture> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'felt-fixture-'));
  const contentDir = path.join(root, 'content');
  await mkdir(path.join(contentDir, 'articles', 'en_US'), { recursive: true });
  await writeFile(path.join(contentDir, 'site.json'), JSON.stringify(siteSettings(options.settings), null, 2));
  await writeFile(path.join(contentDir, 'categories.json'), JSON.stringify(FIXTURE_CATEGORIES, null, 2));
  await writeFile(path.join(contentDir, 'authors.json'), JSON.stringify(FIXTURE_AUTHORS, null, 2));
  for (const [file, source] of Object.entries(options.articles ?? {})) {
    await mkdir(path.dirname(path.join(contentDir, 'articles', file)), { recursive: true });
    await writeFile(path.join(contentDir, 'articles', file), source);
  }
  return { root, contentDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Collects what a reporter prints, for assertions (secrets, plain lines). */
export function captureStreams() {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (sink: string[]) => ({ write: (chunk: string) => (sink.push(String(chunk)), true) }) as unknown as NodeJS.WritableStream;
  return { stdout: stream(out), stderr: stream(err), text: () => out.join('') + err.join(''), out: () => out.join(''), err: () => err.join('') };
}
