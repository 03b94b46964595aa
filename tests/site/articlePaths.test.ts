/**
 * Issue 13, memory: an article keeps its path once. The path shown in
 * messages (`file`) is taken as the end of the path it is read from
 * (`source`) when the content folder is under the working folder
 * (site/content/loadContent.ts articlePaths): both must still say what they
 * said when they were joined apart, from a cold load and from the article
 * cache, wherever felt is run from.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { loadContent } from '../../site/content/loadContent.ts';
import { tempDir } from './helpers.ts';

const started = process.cwd();
afterEach(() => process.chdir(started));

async function corpus(): Promise<{ root: string; content: string }> {
  const root = await tempDir();
  const content = path.join(root, 'content');
  await writeCorpus(content, 40);
  return { root, content };
}

function expectPaths(articles: { file: string; source: string; slug: string }[], content: string, shown: (full: string) => string) {
  expect(articles.length).toBe(40);
  for (const article of articles) {
    const full = path.join(content, 'articles', 'en_US', `${article.slug}.md`);
    expect(path.resolve(article.source)).toBe(full);
    expect(existsSync(article.source)).toBe(true);
    expect(article.file).toBe(shown(full));
  }
}

describe('an article path kept once', () => {
  it('shows the path from the working folder when content/ is under it, cold and from the cache', async () => {
    const { root, content } = await corpus();
    process.chdir(root);
    const cacheFile = path.join(root, '.felt-cache', 'articles.json');
    for (const given of [content, 'content']) {
      const cold = (await loadContent(given)).articles.en_US;
      expectPaths(cold, content, (full) => path.join('content', 'articles', 'en_US', path.basename(full)));
    }
    await loadContent(content, { cacheFile });
    const cached = (await loadContent(content, { cacheFile })).articles.en_US;
    expectPaths(cached, content, (full) => path.join('content', 'articles', 'en_US', path.basename(full)));
  });

  it('shows the whole path when content/ is not under the working folder', async () => {
    const { content } = await corpus();
    const elsewhere = await tempDir();
    process.chdir(elsewhere);
    const articles = (await loadContent(content)).articles.en_US;
    expectPaths(articles, content, (full) => full);
  });
});
