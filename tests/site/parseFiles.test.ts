/**
 * Issue 13: a large site's unread articles are parsed by two threads, each
 * taking files from one shared counter (site/content/parseFiles.ts). Whoever
 * parsed a file, the outcomes come back in file order and whole: a thread
 * that fails leaves its files to this one. The helper here takes files from
 * the same counter between this thread's reads, as the render worker does
 * beside it; the build's own test of the real worker is renderPool.test.ts.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from '../../bench/corpus.mjs';
import { PARSE_BESIDE_FILES, claimFiles, parseUnread, type FileOutcome, type ParsingHelper, type UnreadArticle } from '../../site/content/parseFiles.ts';
import { loadContent } from '../../site/content/loadContent.ts';
import { tempDir } from './helpers.ts';
import { statSync } from 'node:fs';

const LOCALE = 'en_US';

/** The corpus's files as loadArticles hands them over, with a broken one, a refused one and one gone since listed. */
async function unreadFiles(count: number): Promise<UnreadArticle[]> {
  const content = path.join(await tempDir(), 'content');
  await writeCorpus(content, count);
  const folder = path.join(content, 'articles', LOCALE);
  const names = Array.from({ length: count }, (_, i) => `article-${String(i).padStart(6, '0')}.md`);
  const broken = path.join(folder, names[7]!);
  await writeFile(broken, (await readFile(broken, 'utf8')).replace(/^title: .*$/m, 'title: ""'));
  await writeFile(path.join(folder, names[8]!), Buffer.from([0x74, 0x69, 0xff, 0xfe, 0x0a]));
  const files = names.map((name) => {
    const full = path.join(folder, name);
    const { size, mtimeMs } = statSync(full);
    return { full, shown: `content/articles/${LOCALE}/${name}`, size, mtimeMs };
  });
  await rm(files[9]!.full);
  return files;
}

/**
 * A second thread's stand-in: it takes a file from the shared counter each time this thread's event loop turns (a
 * real thread takes them at any moment), and gives back at most `keep` of what it took, as a thread that fails does.
 */
function helperTaking(keep = Infinity): ParsingHelper & { took: number } {
  const helper = {
    took: 0,
    parse: async (locale: typeof LOCALE, files: UnreadArticle[], claims: Int32Array) => {
      const outcomes: [number, FileOutcome][] = [];
      await claimFiles(files, locale, claims, (index, outcome) => {
        helper.took++;
        if (outcomes.length < keep) outcomes.push([index, outcome]);
      });
      return outcomes;
    },
  };
  return helper;
}

describe('parsing unread articles on two threads', () => {
  it('gives every file its outcome in file order, whichever thread parsed it', async () => {
    const files = await unreadFiles(PARSE_BESIDE_FILES);
    const alone = await parseUnread(files, LOCALE);
    const helper = helperTaking();
    const shared = await parseUnread(files, LOCALE, helper);
    expect(helper.took).toBeGreaterThan(0);
    expect(helper.took).toBeLessThan(files.length);
    expect(shared).toEqual(alone);
    // What the outcomes hold: articles, the broken file's and the undecodable file's problems, nothing for the gone one.
    expect(alone[0]!.article?.slug).toBe('article-000000');
    expect(alone[7]!.problems.map((p) => p.message).join(' ')).toMatch(/title/);
    expect(alone[8]!.problems[0]).toMatchObject({ file: files[8]!.shown, message: expect.stringMatching(/not UTF-8/) });
    expect(alone[9]).toEqual({ problems: [] });
    expect(alone.filter((o) => o.article)).toHaveLength(files.length - 3);
  });

  it('parses here what a failed thread took and did not give back', async () => {
    const files = await unreadFiles(PARSE_BESIDE_FILES);
    const helper = helperTaking(5);
    const outcomes = await parseUnread(files, LOCALE, helper);
    expect(helper.took).toBeGreaterThan(5);
    expect(outcomes).toEqual(await parseUnread(files, LOCALE));
  });

  it('asks no other thread for fewer files than are worth the messages', async () => {
    const files = (await unreadFiles(20)).slice(0, PARSE_BESIDE_FILES - 1);
    const helper = helperTaking();
    expect(await parseUnread(files, LOCALE, helper)).toHaveLength(files.length);
    expect(helper.took).toBe(0);
  });

  it('loads the same content with a helper as without', async () => {
    const content = path.join(await tempDir(), 'content');
    await writeCorpus(content, PARSE_BESIDE_FILES + 10);
    const helper = helperTaking();
    const shared = await loadContent(content, { parsing: helper });
    expect(helper.took).toBeGreaterThan(0);
    expect(shared).toEqual(await loadContent(content));
  });
});
