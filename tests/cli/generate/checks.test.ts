/**
 * The generation's length check counts words as the site does: an article
 * it accepts at N words shows N words (JSON-LD wordCount) and the reading
 * time of N words on its card and its page.
 */
import { describe, expect, it } from 'vitest';
import { articleFile } from '../../../cli/generate/answer.ts';
import { checkAnswer } from '../../../cli/generate/checks.ts';
import { Registry } from '../../../cli/generate/registry.ts';
import { loadLocaleRules } from '../../../cli/generate/rules.ts';
import { loadContent } from '../../../site/content/loadContent.ts';
import { parseArticle } from '../../../site/content/parseArticle.ts';
import { readingMinutes, renderMarkdown } from '../../../site/render/markdown.ts';
import { articleAnswer } from '../../support/articles.ts';
import { FIXTURE_SITE } from '../../site/helpers.ts';

// Markdown syntax, dashes, hyphenated and apostrophe words, a link with an address and a title, a table.
const BODY = `Don't chase losses — a well-kept bankroll lasts.

## Odds & ends

1. Read the [house rules](https://casino.example/rules_(2025) "House rules") first.
2. **Bold** and _italic_ text, \`inline code\`, odds of 3.5 – or 7/2.

> A quote, with a – dash.

| Bet | Stake |
|-----|-------|
| Win | 10 |
`;

describe('the generation word count', () => {
  it('is the count the built article shows', async () => {
    const content = await loadContent(FIXTURE_SITE);
    const category = content.categories[0]!;
    const slot = { index: 0, target: { category, subcategory: category.children[0]! } };
    const meta = { author: content.authors[0]!.name, date: '2025-01-01', locale: 'en_US' as const };
    // A minimum no body meets, so the check says how many words it counted.
    const rules = { ...(await loadLocaleRules('en_US')), minWords: 100_000 };
    for (const body of [BODY, articleAnswer('en', 1).body]) {
      const answer = { ...articleAnswer('en', 1), body };
      const result = checkAnswer(JSON.stringify(answer), slot, meta, rules, new Registry('en-US'));
      const checked = Number(/the body has (\d+) words/.exec(result.ok ? '' : result.reason)?.[1]);
      const parsed = parseArticle(articleFile(answer, slot, meta), `${answer.slug}.md`, 'en_US');
      expect(parsed.problems).toEqual([]);
      const page = renderMarkdown(parsed.body!);
      expect({ article: parsed.article!.words, page: page.words, minutes: readingMinutes(page.words) }).toEqual({
        article: checked,
        page: checked,
        minutes: readingMinutes(checked),
      });
    }
  });
});
