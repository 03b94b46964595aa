/**
 * Issue 13: felt's markdown-it finds lines and runs of text with the engine's
 * string search (site/render/markdownScans.ts) where the package looks at one
 * character at a time. The tokens, and so every article's HTML, must be the
 * package's own: every markdown file of the repository, a few constructs they
 * lack, and thousands of generated documents made of the characters the two
 * scans stop at, with felt's options and with markdown-it's defaults.
 */
import MarkdownIt, { type MarkdownIt as Parser } from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { withFasterScans } from '../../site/render/markdownScans.ts';
import { markdownDocuments } from '../support/markdownDocuments.ts';

const EXTRA = [
  '',
  '\n',
  '   ',
  'text with no newline at the end',
  'last line of spaces   \n   ',
  '\t\tcode after tabs\n \tmixed\n  \t  more',
  '# Title\n\nSome *emphasis*, **strong**, `code`, a [link *with* label](https://example.com "t") and <b>raw</b>.',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n\n> quote\n> - list in quote\n\n1. one\n2. two\n   - nested\n\t- tabbed',
  '```js\nconst x = "<tag>";\n```\n\n    indented code\n\n---\n\n![alt *x*](/img.png) https://autolink.example "quotes" -- (c) ...',
  'Setext\n======\n\nline  \nbreak\\\nand &amp; &copy; &#35; entities ~~struck~~ 5 > 3 a@b.c\n\n[ref][1]\n\n[1]: /target',
  '[outer [inner] label](/u) [unclosed label and more text after it *em*',
  'Русский текст, 한국어, Türkçe: «кавычки» "quotes" \'single\' — dash',
];

/** Documents of the characters both scans stop at or count (terminators, spaces, tabs, newlines), and words. */
function generated(count: number): string[] {
  const pieces = [
    'word',
    'more text',
    ' ',
    '  ',
    '    ',
    '\t',
    '\n',
    '\n\n',
    '\n   ',
    '\n\t',
    '*',
    '**',
    '_',
    '[',
    ']',
    '(',
    ')',
    '![',
    '](/x)',
    '!',
    '#',
    '## ',
    '`',
    '```',
    '-',
    '- ',
    '+',
    '>',
    '> ',
    '1. ',
    '|',
    '\\',
    '&',
    '&amp;',
    '<',
    '>',
    '"',
    "'",
    '~',
    '^',
    '$',
    '%',
    '=',
    '@',
    '{',
    '}',
    ':',
    '(c)',
    '...',
    '--',
    '\u00a0',
    'é',
    '한',
    'https://example.com',
  ];
  let seed = 13;
  const random = () => {
    // A fixed sequence (xorshift): the same documents on every run, so a failure can be replayed.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  return Array.from({ length: count }, () => {
    let doc = '';
    for (let n = Math.floor(random() * 120); n > 0; n--) doc += pieces[Math.floor(random() * pieces.length)];
    return doc;
  });
}

describe('markdown-it with the faster scans', () => {
  it('replaces the package’s text rule and block state', () => {
    const [stock, fast] = [new MarkdownIt(), withFasterScans(new MarkdownIt())];
    const stockText = stock.inline.ruler.getRules('').find((rule) => rule.name === 'text');
    expect(stockText).toBeDefined();
    expect(fast.inline.ruler.getRules('')).not.toContain(stockText);
    expect(fast.block.State).not.toBe(stock.block.State);
  });

  it('makes the package’s tokens and HTML for every document', async () => {
    const documents = [...EXTRA, ...generated(4000), ...(await markdownDocuments('content', 'tests/fixtures', 'docs', 'README.md'))];
    expect(documents.length).toBeGreaterThan(4050);
    for (const options of [{ html: false, linkify: false, typographer: true }, {}, { html: true, linkify: true }]) {
      const [stock, fast] = [new MarkdownIt(options), withFasterScans(new MarkdownIt(options))];
      for (const doc of documents) {
        expect(JSON.stringify(fast.parse(doc, {})), doc).toBe(JSON.stringify(stock.parse(doc, {})));
        expect(fast.render(doc)).toBe(stock.render(doc));
        expect(fast.renderInline(doc)).toBe(stock.renderInline(doc));
      }
    }
  });

  it('finds the package’s lines, their indents and columns', async () => {
    const documents = [...EXTRA, ...generated(4000), ' \tone space, then a tab\n   \t\t three, two tabs\n\t \t'];
    const [stock, fast] = [new MarkdownIt(), withFasterScans(new MarkdownIt())];
    const lines = (md: Parser, src: string) => {
      const { bMarks, eMarks, tShift, sCount, bsCount, lineMax, src: kept } = new md.block.State(src, md, {}, []);
      return { bMarks, eMarks, tShift, sCount, bsCount, lineMax, kept };
    };
    for (const doc of documents) expect(lines(fast, doc), JSON.stringify(doc)).toEqual(lines(stock, doc));
  });
});
