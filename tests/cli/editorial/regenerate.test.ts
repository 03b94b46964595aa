/**
 * Issue 12, item 6: `felt generate --slug S --replace` and its undo,
 * `felt publish --slug S --version N`, against the OpenAI-compatible
 * loopback server and the loopback GCS server (real clients) and the local
 * folder storage.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../cli/main.ts';
import { replaceArticle } from '../../../cli/generate/replace.ts';
import { publish } from '../../../cli/publish.ts';
import { restoreVersion } from '../../../cli/restoreVersion.ts';
import { parseArticle } from '../../../site/content/parseArticle.ts';
import { startFakeGcs, type FakeGcs } from '../../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { fixtureCopy } from '../../site/helpers.ts';
import { fixtureArticle, openBucket, quiet, storageChoice } from './helpers.ts';
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
afterEach(() => vi.restoreAllMocks());
beforeEach(() => {
  gcs.buckets.clear();
  llm.reply = () => undefined;
  llm.chats.length = 0;
});

const BODY = 'Poker rewards patience.\n\n## Starting hands\n\nPlay fewer, better hands.\n';

describe.each(['local', 'gcs'] as const)('%s storage', (kind) => {
  it('writes a new version with the same locale, category, subcategory and translationKey, keeps the old one, and undoes it', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    const dev = await openBucket(contentDir, choice, 'dev');
    const original = fixtureArticle('river-bets', 'River Bets', { date: '2025-11-02', translationKey: 'river-set', body: BODY });
    await dev.write('articles/en_US/river-bets.md', Buffer.from(original), { contentType: 'text/markdown; charset=utf-8' });
    const common = { contentDir, storage: choice, llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000 } };

    const { reporter, streams } = quiet();
    const result = await replaceArticle({ ...common, slug: 'river-bets', date: '2026-04-02', reporter });
    expect(result).toMatchObject({ slug: 'river-bets', locale: 'en_US', keptVersion: 1, object: 'articles/en_US/river-bets.md' });
    expect(streams.out()).toContain('undo: felt publish --slug river-bets --version 1 --yes');
    // The model was asked about this article, in its section.
    const asked = llm.chats
      .at(-1)!
      .body.messages.map((m) => m.content)
      .join('\n');
    expect(asked).toContain('The article being replaced: "River Bets"');
    expect(asked).toContain('Keep the slug "river-bets"');
    expect(asked).toContain('Beginner Poker Tips');

    const rewritten = (await dev.read('articles/en_US/river-bets.md', { maxBytes: LIMITS.articleBytes })).toString('utf8');
    const { article, problems } = parseArticle(rewritten, 'river-bets.md', 'en_US');
    expect(problems).toEqual([]);
    expect(article).toMatchObject({
      slug: 'river-bets',
      locale: 'en_US',
      translationKey: 'river-set',
      author: 'Mara Lindqvist',
      date: '2025-11-02',
      updated: '2026-04-02',
      entities: [{ category: 'pokerGuides', subcategories: [{ subcategory: 'beginnerPokerTips' }] }],
    });
    expect(article!.title).not.toBe('River Bets');
    expect((await dev.read('history/en_US/river-bets/1.md', { maxBytes: LIMITS.articleBytes })).toString('utf8')).toBe(original);

    // Published, then undone: version 1 comes back to dev and to production; the regenerated text is kept as version 2.
    await publish({ ...common, slugs: ['river-bets'], yes: true, reporter: quiet().reporter });
    const prod = await openBucket(contentDir, choice, 'prod');
    expect((await prod.read('articles/en_US/river-bets.md', { maxBytes: LIMITS.articleBytes })).toString('utf8')).toBe(rewritten);
    const restored = await restoreVersion({ ...common, slug: 'river-bets', version: 1, reporter: quiet().reporter });
    expect(restored).toMatchObject({ locale: 'en_US', restored: 1, kept: 2 });
    await publish({ ...common, slugs: ['river-bets'], yes: true, reporter: quiet().reporter });
    expect((await prod.read('articles/en_US/river-bets.md', { maxBytes: LIMITS.articleBytes })).toString('utf8')).toBe(original);
    expect((await dev.read('history/en_US/river-bets/2.md', { maxBytes: LIMITS.articleBytes })).toString('utf8')).toBe(rewritten);

    // On the command line: publish's own --version (not felt's), and a version not kept is one line, exit 1.
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void printed.push(parts.join(' ')));
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as never);
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as never);
    const cli = ['--content', contentDir, ...(kind === 'gcs' ? ['--storage', 'gcs', '--storage-endpoint', gcs.url] : ['--storage', 'local'])];
    expect(await main(['node', 'felt', 'publish', '--slug', 'river-bets', '--version', '9', '--yes', ...cli])).toBe(1);
    expect(printed).toEqual([expect.stringMatching(/^felt: version 9 of en_US\/river-bets is not kept; kept: 1, 2\. choose one of the kept versions$/)]);
    printed.length = 0;
    expect(await main(['node', 'felt', 'publish', '--slug', 'river-bets', '--version', '2', '--yes', ...cli])).toBe(0);
    vi.restoreAllMocks();
    expect((await prod.read('articles/en_US/river-bets.md', { maxBytes: LIMITS.articleBytes })).toString('utf8')).toBe(rewritten);
  });

  it('a failing answer leaves the old text and keeps no version; an unknown slug or version is one clear error', async () => {
    const contentDir = await fixtureCopy();
    const choice = storageChoice(kind, gcs);
    const dev = await openBucket(contentDir, choice, 'dev');
    const common = { contentDir, storage: choice, llm: { baseURL: llm.url, apiKey: KEY, timeoutMs: 5000 } };
    // The article lives in content/ only (published, not in dev): it is found there.
    const before = await readFile(path.join(contentDir, 'articles', 'en_US', 'poker-basics.md'), 'utf8');
    llm.reply = () => ({ content: '{"title": "too short"}' });
    await expect(replaceArticle({ ...common, slug: 'poker-basics', attempts: 2, reporter: quiet().reporter })).rejects.toThrow(
      /en_US\/poker-basics was not replaced: .* \(after 2 answers\)/,
    );
    expect(await dev.list('history/')).toEqual([]);
    expect(await dev.stat('articles/en_US/poker-basics.md')).toBeUndefined();
    expect(await readFile(path.join(contentDir, 'articles', 'en_US', 'poker-basics.md'), 'utf8')).toBe(before);

    await expect(replaceArticle({ ...common, slug: 'no-such-article', reporter: quiet().reporter })).rejects.toThrow(/no article "no-such-article" in /);
    await expect(restoreVersion({ ...common, slug: 'poker-basics', version: 3, reporter: quiet().reporter })).rejects.toThrow(
      /no versions of "poker-basics" are kept/,
    );
  });
});
