/**
 * site/content/frontmatter.ts scanFrontmatter: the one place that finds the
 * frontmatter's `---` fences and its keys' lines. The parser's line numbers,
 * felt check's and the dev title editor all read the block gray-matter parsed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../shared/errors.ts';
import { checkContent } from '../../site/content/check.ts';
import { scanFrontmatter, splitFrontmatter } from '../../site/content/frontmatter.ts';
import { replaceTitle, saveArticleTitle } from '../../site/dev/editTitle.ts';
import { fixtureCopy } from './helpers.ts';

describe('scanFrontmatter', () => {
  it('gives the closing fence and each top-level key with its line, ignoring indented lines', () => {
    const block = scanFrontmatter('---\ntitle: A\nentities:\n  - category: x\nslug : a\n---\nbody: not a key\n');
    expect(block).toEqual({
      closeLine: 6,
      keys: new Map([
        ['title', 2],
        ['entities', 3],
        ['slug', 5],
      ]),
    });
  });

  it('reads a raw file: byte-order mark and CRLF line ends', () => {
    expect(scanFrontmatter('\uFEFF---\r\ntitle: A\r\nslug: a\r\n---\r\nBody\r\n')).toEqual({
      closeLine: 4,
      keys: new Map([
        ['title', 2],
        ['slug', 3],
      ]),
    });
  });

  it('has nothing to say about a file without frontmatter or one that never closes', () => {
    expect(scanFrontmatter('title: A\n')).toBeUndefined();
    expect(scanFrontmatter('----\ntitle: A\n----\n')).toBeUndefined();
    expect(scanFrontmatter('---\ntitle: A\nBody\n')).toBeUndefined();
  });

  it('ends the block where gray-matter does: at the first line starting with ---', () => {
    const source = '---\ntitle: Fences\n----\nauthor: Body line\n';
    expect(splitFrontmatter(source).data).toEqual({ title: 'Fences' });
    expect(scanFrontmatter(source)).toEqual({ closeLine: 3, keys: new Map([['title', 2]]) });
  });
});

describe('frontmatter lines across felt', () => {
  // gray-matter ends this block at "----": "author" is a line of the body, not a field.
  const source = '---\ntitle: Fences\nslug: fences\n----\nauthor: Body line\nText of the article.\n';

  it('felt check never points at a line of the body for a missing field', async () => {
    const dir = await fixtureCopy({ 'articles/en_US/fences.md': source });
    const lines = (await checkContent({ contentDir: dir })).problems.map(formatProblem);
    expect(lines).toContainEqual(expect.stringMatching(/fences\.md:1 field "author": author is required/));
  });

  it('felt check says a block that never closes never closes, not what YAML made of the body', async () => {
    const unclosed = '---\ntitle: Open\nslug: open\nauthor: Mara Lindqvist\n\n## A heading\n\n- a list item: with a colon\n- another\n';
    const dir = await fixtureCopy({ 'articles/en_US/open.md': unclosed });
    const lines = (await checkContent({ contentDir: dir })).problems.map(formatProblem).filter((line) => line.includes('open.md'));
    expect(lines).toEqual([expect.stringMatching(/open\.md:1: frontmatter opened on line 1 is never closed \(add a line with --- after its last field\)$/)]);
  });

  it('the title editor edits the block the site parsed', async () => {
    expect(replaceTitle(source, 'New')).toBe(source.replace('title: Fences', 'title: "New"'));
    const dir = await fixtureCopy();
    const file = await saveArticleTitle(dir, 'en_US', 'table-talk', 'Table manners');
    expect(splitFrontmatter(await readFile(file, 'utf8')).data.title).toBe('Table manners');
    expect(file).toBe(path.join(dir, 'articles/en_US/table-talk.md'));
  });
});
