/**
 * Issue 13, memory: a cold build gives articles filed alike one entity list
 * (site/content/loadContent.ts), as the article cache does on a rebuild,
 * instead of one parsed list per article (537 of an article's 1,343 bytes
 * in a heap snapshot at 50,000 articles, bench/heapSummary.mjs).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { loadContent } from '../../site/content/loadContent.ts';
import { tempDir } from './helpers.ts';

describe('entity lists on a cold load', () => {
  it('are one list for the articles filed alike', async () => {
    const content = path.join(await tempDir(), 'content');
    await writeCorpus(content, 300);
    const articles = (await loadContent(content)).articles.en_US;
    const listsByText = new Map<string, Set<unknown>>();
    for (const article of articles) {
      const text = JSON.stringify(article.entities);
      const lists = listsByText.get(text) ?? listsByText.set(text, new Set()).get(text)!;
      lists.add(article.entities);
    }
    // The corpus files 300 articles under far fewer categories and subcategories.
    expect(listsByText.size).toBeLessThan(articles.length / 3);
    for (const [text, lists] of listsByText) expect(lists.size, text).toBe(1);
  });
});
