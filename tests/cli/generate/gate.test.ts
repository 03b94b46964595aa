/**
 * Issue 17, item 4: what the quality gate let through. Each answer below
 * passed the old checks; each is now refused with a reason the model (and
 * the operator) can act on, and what is stored carries its signals.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAnswer, DEFAULT_GATE } from '../../../cli/generate/checks.ts';
import { languageTag } from '../../../cli/generate/existing.ts';
import { Registry } from '../../../cli/generate/registry.ts';
import { loadLocaleRules } from '../../../cli/generate/rules.ts';
import { generate, type RunSummary } from '../../../cli/generate/run.ts';
import { signatureOf, similarity } from '../../../cli/generate/similarity.ts';
import { splitFrontmatter } from '../../../site/content/frontmatter.ts';
import { loadContent } from '../../../site/content/loadContent.ts';
import { articleAnswer } from '../../support/articles.ts';
import { articleSource } from '../../support/fixtureSite.ts';
import { FIXTURE_SITE } from '../../site/helpers.ts';
import { devBucketDir, felt, libraryOptions, objectMetadata, setUpWorld } from './support.ts';

const COPIED = articleAnswer('en', 7);
const world = setUpWorld(() => ({ articles: { 'en_US/the-original.md': articleSource('the-original', 'The original', 'en_US', COPIED.body) } }));

async function check(locale: 'en_US' | 'tr_TR', answer: object, registry = new Registry(languageTag(locale))) {
  const content = await loadContent(FIXTURE_SITE);
  const category = content.categories[0]!;
  const slot = { index: 0, target: { category, subcategory: category.children[0]! } };
  const meta = { author: content.authors[0]!.name, date: '2025-01-01', locale };
  return checkAnswer(JSON.stringify(answer), slot, meta, await loadLocaleRules(locale), registry);
}

const ENGLISH_TAIL = `## Final thoughts

${'Remember that a careful player always keeps the bankroll apart from the money for rent and food, and never chases a loss after a long evening at the table. '.repeat(3)}`;

describe('the quality gate refuses', () => {
  it('UPPERCASE Turkish suffixes, with İ and ı', async () => {
    const base = articleAnswer('tr', 3);
    for (const word of ['YAPMAKTADIR', 'gerekmektedİr', 'GEREKMEKTEDİR']) {
      const result = await check('tr_TR', { ...base, body: `${base.body}\nBu ${word} ve kolay.\n` });
      expect(result.ok ? 'accepted' : result.reason).toContain(`are not allowed: ${word}`);
    }
    expect((await check('tr_TR', base)).ok).toBe(true);
  });

  it('a Turkish title that an existing one writes only in other capitals (İ and ı as Turkish lowercases them)', async () => {
    const registry = new Registry(languageTag('tr_TR'));
    registry.add('iddaa-stratejileri', 'iddaa stratejileri için ipuçları', 'bettingStrategies');
    const base = articleAnswer('tr', 5);
    const result = await check('tr_TR', { ...base, title: 'İDDAA STRATEJİLERİ İÇİN İPUÇLARI' }, registry);
    expect(result.ok ? 'accepted' : result.reason).toContain('the title is too close to the existing article "iddaa stratejileri için ipuçları"');
    expect((await check('tr_TR', base, registry)).ok).toBe(true);
  });

  it('a Turkish article whose last section is English', async () => {
    const base = articleAnswer('tr', 4);
    const result = await check('tr_TR', { ...base, body: `${base.body}\n${ENGLISH_TAIL}` });
    expect(result.ok ? 'accepted' : result.reason).toMatch(/the section "Final thoughts" is not in Turkish \(it reads as "eng"\)/);
  });

  it('script links, as a browser reads them: entity-encoded tabs and line breaks inside the scheme', async () => {
    const base = articleAnswer('en', 6);
    for (const link of ['javascript:alert(1)', 'java&#x09;script:alert(1)', 'jav&#x0A;ascript:alert(1)', 'VBScript:x', 'data:text/html,x']) {
      const result = await check('en_US', { ...base, body: `${base.body}\nSee [the odds](${link}) first.\n` });
      expect(result.ok ? 'accepted' : result.reason, link).toContain('links must not use javascript:, vbscript:, data: or file: addresses');
    }
    expect((await check('en_US', { ...base, body: `${base.body}\nSee [the odds](https://example.org/odds) first.\n` })).ok).toBe(true);
  });

  it('HTML in the title and the description', async () => {
    const base = articleAnswer('en', 5);
    const title = await check('en_US', { ...base, title: 'The <b>real</b> odds of a flush' });
    expect(title.ok ? 'accepted' : title.reason).toContain('the title contains HTML ("<b>"); write plain text');
    const description = await check('en_US', { ...base, description: 'Odds, limits &amp; a plan for careful players, explained.' });
    expect(description.ok ? 'accepted' : description.reason).toContain('the description contains HTML ("&amp;")');
    // Comparison signs and ampersands in plain text are text.
    expect((await check('en_US', { ...base, title: 'Odds < 2 & why they matter' })).ok).toBe(true);
  });

  it('a body copied from an article of content/ under a new title, and names it', async () => {
    let n = 0;
    world.llm.reply = () => (++n === 1 ? { content: JSON.stringify({ ...articleAnswer('en', 40), body: COPIED.body }) } : undefined);
    const summary = (await generate(libraryOptions(world, { count: 1 }).opts)) as RunSummary;
    expect(summary.stored).toHaveLength(1);
    expect(summary.stored[0]!.attempts).toBe(2);
    expect(world.llm.chats[1]!.body.messages[3]!.content).toMatch(
      /the body repeats the existing article "the-original" \(similarity 1\.00, the limit is 0\.4\)/,
    );
  });

  it('a body copied from an article stored in the bucket by an earlier run, even one stored without a signature', async () => {
    const earlier = (await generate(libraryOptions(world, { count: 1, date: '2026-04-01' }).opts)) as RunSummary;
    const first = world.llm.chats[0]!.n;
    // As an article stored by an older felt: no signature and no subcategory in its metadata.
    const sidecar = path.join(world.fixture.root, '.buckets', '.meta', 'felt-test-dev', `${earlier.stored[0]!.object}.json`);
    const info = JSON.parse(await readFile(sidecar, 'utf8')) as { metadata: Record<string, string> };
    delete info.metadata.feltMinhash;
    delete info.metadata.feltSubcategory;
    await writeFile(sidecar, JSON.stringify(info));
    let n = 0;
    world.llm.reply = () => (++n === 1 ? { content: JSON.stringify({ ...articleAnswer('en', 41), body: articleAnswer('en', first).body }) } : undefined);
    const summary = (await generate(libraryOptions(world, { count: 1, date: '2026-04-02' }).opts)) as RunSummary;
    expect(summary.stored[0]!.attempts).toBe(2);
    expect(world.llm.chats.at(-1)!.body.messages[3]!.content).toContain(`the body repeats the existing article "${earlier.stored[0]!.slug}"`);
    // Read once: its signature is kept in its metadata for the next night.
    expect(await objectMetadata(world, earlier.stored[0]!.object)).toMatchObject({
      feltMinhash: expect.any(String),
      feltSubcategory: earlier.stored[0]!.subcategory,
    });
  });

  it('a model refusal and a cut-off, named as such', async () => {
    let n = 0;
    world.llm.reply = () => {
      n++;
      if (n === 1) return { refusal: "I'm sorry, I can't help with that." };
      if (n === 2) return { content: '{"title": "Half an answ', finishReason: 'length' };
      if (n === 3) return { content: '', finishReason: 'content_filter' };
      return undefined;
    };
    const summary = (await generate(libraryOptions(world, { count: 1, attempts: 4 }).opts)) as RunSummary;
    expect(summary.stored[0]!.attempts).toBe(4);
    const reasons = world.llm.chats[3]!.body.messages.filter((m, i) => m.role === 'user' && i > 1).map((m) => m.content);
    expect(reasons[0]).toContain(`the model refused to write the article ("I'm sorry, I can't help with that.")`);
    expect(reasons[1]).toContain(`the answer was cut off at the model's output limit (finish_reason "length")`);
    expect(reasons[2]).toContain("the provider's content filter stopped the answer");
    expect(reasons.join('\n')).not.toContain('not valid JSON');
  });
});

describe('the near-duplicate threshold (README figures)', () => {
  it("on the repository's articles: different ones score at most 0.03, a copy with one word in twenty changed is refused", async () => {
    for (const locale of ['en_US', 'ru_RU', 'tr_TR'] as const) {
      const dir = new URL(`../../../content/articles/${locale}/`, import.meta.url).pathname;
      const bodies = await Promise.all(
        (await readdir(dir)).filter((f) => f.endsWith('.md')).map(async (f) => splitFrontmatter(await readFile(path.join(dir, f), 'utf8')).body),
      );
      const tag = locale.replace('_', '-');
      const signatures = bodies.map((b) => signatureOf(b, tag)!);
      let closest = 0;
      for (let i = 0; i < signatures.length; i++)
        for (let j = i + 1; j < signatures.length; j++) closest = Math.max(closest, similarity(signatures[i]!, signatures[j]!));
      expect(closest, locale).toBeLessThanOrEqual(0.03);
      for (const [i, body] of bodies.entries()) {
        const edited = body
          .split(' ')
          .map((w, k) => (k % 20 === 0 ? 'zzz' : w))
          .join(' ');
        expect(similarity(signatureOf(edited, tag)!, signatures[i]!), `${locale} article ${i}`).toBeGreaterThanOrEqual(DEFAULT_GATE.duplicateThreshold);
      }
    }
  });
});

describe('the signals of a stored article', () => {
  it('are in its metadata and in the run summary (--json): attempts, similarity to the nearest article, model', async () => {
    let n = 0;
    world.llm.reply = () => (++n === 1 ? { content: 'not json' } : undefined);
    const result = await felt(world, 'generate', '--locale', 'en_US', '--count', '1', '--json');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    const stored = summary.stored[0]!;
    expect(stored).toMatchObject({ attempts: 2, model: 'gpt-4o-mini', nearest: 'the-original', similarity: expect.any(Number) });
    expect(stored.similarity).toBeLessThan(0.4);
    const metadata = await objectMetadata(world, stored.object);
    expect(metadata).toMatchObject({
      feltAttempts: '2',
      feltModel: 'gpt-4o-mini',
      feltNearest: 'the-original',
      feltSimilarity: String(stored.similarity),
      feltMinhash: expect.stringMatching(/^[A-Za-z0-9+/]{600,}=*$/),
    });
    const plain = await felt(world, 'generate', '--locale', 'en_US', '--count', '2', '--run-id', 'second');
    expect(plain.stdout).toMatch(/stored article-en-\d+-\w+ \(\w+\/\w+; 1 attempt, gpt-4o-mini, nearest [\w-]+ at 0\.\d\d\)/);
  });
});

describe('one-line fields of a generated article', () => {
  it('a title and description with line breaks, tabs and runs of spaces are stored on one line, not refused', async () => {
    const answer = articleAnswer('en', 42);
    const title = `${answer.title.replace(' ', '\n')}\r\n\t of   the week`;
    const description = `Odds,  limits\n\nand a plan\u00A0for careful players,\n explained. `;
    world.llm.reply = () => ({ content: JSON.stringify({ ...answer, title, description }) });
    const summary = (await generate(libraryOptions(world, { count: 1 }).opts)) as RunSummary;
    expect(world.llm.chats).toHaveLength(1);
    const stored = summary.stored[0]!;
    const oneLineTitle = `${answer.title} of the week`;
    const file = await readFile(path.join(devBucketDir(world), stored.object), 'utf8');
    const oneLineDescription = 'Odds, limits and a plan\u00A0for careful players, explained.';
    expect(splitFrontmatter(file).data).toMatchObject({ title: oneLineTitle, description: oneLineDescription });
    expect(file).toContain(`\ntitle: ${JSON.stringify(oneLineTitle)}\n`);
    expect((await objectMetadata(world, stored.object)).feltTitle).toBe(oneLineTitle);
  });
});
