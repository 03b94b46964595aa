import { describe, expect, it } from 'vitest';
import { readingMinutes, renderMarkdown } from '../../site/render/markdown.ts';
import { countWords } from '../../shared/words.ts';

describe('markdown', () => {
  it('counts words in English, Russian and Turkish, keeping hyphenated and apostrophe words whole', () => {
    expect(countWords("Don't chase losses — a well-kept bankroll lasts.")).toBe(7);
    expect(countWords('Управление банкроллом: основы и 3 правила')).toBe(6);
    expect(countWords('Kasa yönetiminin temelleri, şimdi öğrenin!')).toBe(5);
    expect(countWords('## Heading\n\n- one\n- two')).toBe(3);
    expect(countWords('| Bet | Stake |\n|-----|-------|\n> **Win** – _all_')).toBe(4);
  });

  it('counts the words a link shows, not its address or title', () => {
    expect(countWords('Read [the house rules](https://casino.example/rules_(2025) "House rules") first.')).toBe(5);
    expect(countWords('![a chip](https://x.example/chip.png) and [a link](/articles/a-b-c)')).toBe(5);
    // Not a link: the text stays words, and a "](" with no ")" on its line costs one look, not one per "](".
    expect(countWords('[odd](bracket\nwords here')).toBe(4);
    expect(countWords(`${'x](y '.repeat(50_000)}`)).toBe(100_000);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(660)).toBe(3);
  });

  it('escapes raw HTML, refuses script links and gives headings ids for the contents', () => {
    const out = renderMarkdown(
      'Intro\n\n## Odds & Ends\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) ![i](https://x.example/a.png)\n\n## Odds & Ends\n',
    );
    expect(out.html).not.toMatch(/<script|href="javascript:|<img/);
    expect(out.html).toContain('&lt;script&gt;');
    expect(out.toc).toEqual([
      { id: 'section-odds-ends', text: 'Odds & Ends', level: 2 },
      { id: 'section-odds-ends-2', text: 'Odds & Ends', level: 2 },
    ]);
    expect(out.firstParagraph).toBe('Intro');
  });

  it("gives every heading an id of its own, apart from the page's ids (issue 16)", () => {
    const out = renderMarkdown('## Announcer\n\n## Main\n\n## Odds\n\n## Odds\n\n## Odds 2\n\n### Банкролл\n');
    expect(out.toc.map((entry) => entry.id)).toEqual(['section-announcer', 'section-main', 'section-odds', 'section-odds-2', 'section-odds-2-2', 'section-6']);
    expect(out.html).toContain('<h2 id="section-announcer">Announcer</h2>');
    // The numbering goes on where it stopped: "Odds" again after "Odds 2" took section-odds-2-2.
    expect(renderMarkdown('## Odds\n## Odds\n## Odds 2\n## Odds\n').toc.map((entry) => entry.id)).toEqual([
      'section-odds',
      'section-odds-2',
      'section-odds-2-2',
      'section-odds-3',
    ]);
  });

  it('gives 30,000 headings of one text 30,000 ids, and demotes 20,000 h1s, each with its own close (an LLM article of 150 KB)', () => {
    // Each heading counted its id up from 2, and each h1 copied the rest of the tokens to find its close: quadratic,
    // and this article took a build 92 s (a 1 MB one, over 25 minutes). Now a few hundred milliseconds.
    const same = renderMarkdown('## a\n'.repeat(30_000));
    expect(new Set(same.toc.map((entry) => entry.id)).size).toBe(30_000);
    expect(same.toc.at(-1)?.id).toBe('section-a-30000');
    const titles = renderMarkdown(Array.from({ length: 20_000 }, (_, i) => `# Part ${i}`).join('\n'));
    expect(titles.html.match(/<h2 id="section-part-\d+">Part \d+<\/h2>/g)).toHaveLength(20_000);
    expect(titles.html).not.toMatch(/<\/?h1/);
  });
});
