/**
 * Issue 12, item 7: `felt generate --translate S --to ru_RU,tr_TR` writes
 * the other locales' versions of an article as one translation set, each
 * asked in its own locale and checked by its own rules; once the set is
 * published and pulled, the build links it with hreflang. Against the
 * OpenAI-compatible and GCS loopback servers (real clients) and the local
 * folder storage.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translateArticle } from '../../../cli/generate/translate.ts';
import { publish } from '../../../cli/publish.ts';
import { pull } from '../../../cli/pull.ts';
import { buildSiteInMemory } from '../../../site/build/build.ts';
import { parseArticle } from '../../../site/content/parseArticle.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { fixtureCopy } from '../../site/helpers.ts';
import { openBucket, quiet, storageChoice } from './helpers.ts';
import { LIMITS } from '../../../shared/limits.ts';

const KEY = 'sk-test-editorial-0123456789';
let llm: FakeOpenAi;
let gcs: FakeGcs;
beforeAll(async () => {
  llm = await startFakeOpenAi();
  gcs = await startFakeGcs();
});
afterAll(async () => {
  await llm.close();
  await gcs.close();
});
beforeEach(() => {
  gcs.buckets.clear();
  llm.reply = () => undefined;
  llm.chats.length = 0;
});

const hreflangs = (html: string) => [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);

describe.each(['local', 'gcs'] as const)('%s storage', (kind) => {
  it('writes the ru_RU and tr_TR versions with one translationKey; hreflang links the set once it is published and pulled', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    const common = { contentDir, storage: choice, llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000 } };
    const before = await buildSiteInMemory({ contentDir });
    expect(hreflangs(String(before.files.get('articles/poker-basics/index.html')))).toEqual([]);

    const result = await translateArticle({ ...common, slug: 'poker-basics', to: ['ru_RU', 'tr_TR'], date: '2026-04-03', reporter: quiet().reporter });
    expect(result).toMatchObject({ locale: 'en_US', translationKey: 'poker-basics', sourceKeyed: 'articles/en_US/poker-basics.md', failed: [] });
    expect(result.stored.map((s) => s.locale)).toEqual(['ru_RU', 'tr_TR']);
    // Each asked in its own language, with the original to work from.
    expect(llm.chats.map((c) => c.language)).toEqual(['ru', 'tr']);
    for (const chat of llm.chats) expect(chat.body.messages.at(-1)!.content).toContain('Title: Poker Basics');

    const dev = await openBucket(contentDir, choice, 'dev');
    for (const stored of result.stored) {
      const { article, problems } = parseArticle(
        (await dev.read(stored.object, { maxBytes: LIMITS.articleBytes })).toString('utf8'),
        `${stored.slug}.md`,
        stored.locale,
      );
      expect(problems).toEqual([]);
      expect(article).toMatchObject({ locale: stored.locale, translationKey: 'poker-basics', author: 'Mara Lindqvist', date: '2026-04-03' });
      expect(article!.entities[0]).toMatchObject({ category: 'pokerGuides', subcategories: [{ subcategory: 'beginnerPokerTips' }] });
    }
    expect((await dev.read('articles/en_US/poker-basics.md', { maxBytes: LIMITS.articleBytes })).toString('utf8')).toMatch(
      /^locale: en_US\ntranslationKey: poker-basics$/m,
    );

    // A rerun finds the set complete: no call, nothing written.
    const again = await translateArticle({ ...common, slug: 'poker-basics', to: ['ru_RU', 'tr_TR'], reporter: quiet().reporter });
    expect(again.stored).toEqual([]);
    expect(again.skipped.map((s) => s.locale)).toEqual(['ru_RU', 'tr_TR']);
    expect(llm.chats).toHaveLength(2);

    await publish({ ...common, all: true, yes: true, reporter: quiet().reporter });
    await pull({ ...common, reporter: quiet().reporter });
    const after = await buildSiteInMemory({ contentDir });
    const [ru, tr] = result.stored;
    expect(hreflangs(String(after.files.get('articles/poker-basics/index.html'))).sort()).toEqual(
      [
        'en-US https://fixture.example/articles/poker-basics',
        `ru-RU https://ru.fixture.example/articles/${ru!.slug}`,
        `tr-TR https://tr.fixture.example/articles/${tr!.slug}`,
      ].sort(),
    );
    const russian = await buildSiteInMemory({ contentDir, locale: 'ru_RU' });
    expect(hreflangs(String(russian.files.get(`articles/${ru!.slug}/index.html`)))).toContain('en-US https://fixture.example/articles/poker-basics');
  });

  it('checks each locale by its own rules: a Turkish answer in English fails alone, the Russian one is stored', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    llm.reply = (call) => (call.language === 'tr' ? { content: JSON.stringify(englishAnswer()) } : undefined);
    const { reporter, streams } = quiet();
    const result = await translateArticle({
      contentDir,
      storage: choice,
      llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000 },
      slug: 'poker-basics',
      to: ['tr_TR', 'ru_RU'],
      attempts: 2,
      reporter,
    });
    expect(result.stored.map((s) => s.locale)).toEqual(['ru_RU']);
    expect(result.failed).toEqual([{ name: 'tr_TR version of poker-basics', reason: expect.stringMatching(/not in Turkish/) }]);
    expect(streams.out()).toMatch(/failed {3}tr_TR: .*not in Turkish/);
  });
});

describe('felt generate --translate --to with a locale felt does not write', () => {
  it('names --to, the flag that holds it, and asks the model nothing', async () => {
    const contentDir = await fixtureCopy();
    await expect(
      translateArticle({
        contentDir,
        storage: { storage: 'local' },
        llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000 },
        slug: 'poker-basics',
        to: ['ru_RU', 'fr_FR'],
        reporter: quiet().reporter,
      }),
    ).rejects.toThrow(/^--to must be one of en_US, ru_RU, tr_TR, not "fr_FR"$/);
    expect(llm.chats).toHaveLength(0);
  });
});

function englishAnswer() {
  const paragraph =
    'Patience at the table pays more than any trick. Fold weak hands early, watch the players who act after you, and keep your stakes where a bad night does not hurt.';
  const sections = ['Position', 'Hands', 'Stakes'].map((h) => `## ${h}\n\n${Array(6).fill(paragraph).join('\n\n')}`).join('\n\n');
  return {
    title: 'Patience at the Poker Table',
    slug: 'patience-at-the-table',
    description: 'Why patient players win more over time, and how to practise it.',
    subsubcategories: ['Basics'],
    body: `${paragraph}\n\n${sections}`,
  };
}
