/**
 * Issue 13, memory: the site model remembers 8,192 article summaries at most (site/model/siteModel.ts), not one for
 * every article until the build ends. A summary asked for again after the model has forgotten it is made again and
 * must be what was made the first time: the pages of a cold build and of a rebuild show it from either.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { loadContent } from '../../site/content/loadContent.ts';
import { loadMessages } from '../../site/i18n/loadMessages.ts';
import { buildSiteModel } from '../../site/model/siteModel.ts';
import { tempDir } from './helpers.ts';

describe('article summaries', () => {
  it('are made again, the same, once more articles than the model remembers were asked for', async () => {
    const content = path.join(await tempDir(), 'content');
    await writeCorpus(content, 9_000);
    const model = buildSiteModel(await loadContent(content), { messages: await loadMessages(), now: new Date('2026-11-30T00:00:00Z') });
    const ids = model.articles.map((article) => article.id);
    expect(ids.length).toBe(9_000);
    const first = model.summaries.get(ids[0]!)!;
    expect(model.summaries.get(ids[0]!)).toBe(first);
    const firstSeen = ids.map((id) => JSON.stringify(model.summaries.get(id)));
    // 9,000 asked for since: the first was forgotten, so a new object, equal to the first.
    const again = model.summaries.get(ids[0]!)!;
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    for (const [i, id] of ids.entries()) expect(JSON.stringify(model.summaries.get(id)), id).toBe(firstSeen[i]);
  }, 60_000);
});
