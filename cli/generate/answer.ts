/**
 * The structured answer asked of the model (a JSON schema for the provider,
 * a zod schema to check what came back) and its conversion to an article
 * file with frontmatter in the site's format.
 */
import { z } from 'zod';
import type { ArticleEntity, ContentLocale } from '../../shared/types.ts';
import type { Slot } from './plan.ts';

export const ANSWER_JSON_SCHEMA = {
  name: 'article',
  strict: true,
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'slug', 'description', 'subsubcategories', 'body'],
    properties: {
      title: { type: 'string', description: 'Headline, at most 110 characters' },
      slug: { type: 'string', description: 'lowercase ASCII kebab-case, from the title' },
      description: { type: 'string', description: 'One or two sentences, at most 160 characters' },
      subsubcategories: { type: 'array', items: { type: 'string' }, description: 'Two to four short topic labels' },
      body: { type: 'string', description: 'The article in Markdown with ## section headings' },
    },
  },
} as const;

/**
 * A one-line field as the model wrote it, on one line: each run of whitespace (a line break, a
 * tab, spaces) becomes one space. A lone no-break space is kept ("т. е.", "2 000"). A title or
 * description is shown on one line, and a stray newline in one is no reason to lose the article.
 */
function collapseWhitespace(value: string): string {
  return value.replace(/\s+/g, (run) => (run === '\u00A0' || run === '\u202F' ? run : ' ')).trim();
}

export const answerSchema = z.object({
  title: z.string().overwrite(collapseWhitespace).min(3, 'is too short').max(110, 'is longer than 110 characters'),
  slug: z.string().trim().min(3, 'is too short').max(90, 'is longer than 90 characters'),
  description: z.string().overwrite(collapseWhitespace).min(20, 'is too short').max(160, 'is longer than 160 characters'),
  subsubcategories: z.array(z.string().trim().min(1).max(60)).max(6, 'has more than 6 entries'),
  body: z.string().min(1, 'is empty'),
});

export type Answer = z.infer<typeof answerSchema>;

export interface ArticleMeta {
  author: string;
  date: string;
  locale: ContentLocale;
}

export function entitiesFor(slot: Slot, answer: Answer): ArticleEntity[] {
  return [{ category: slot.target.category.key, subcategories: [{ subcategory: slot.target.subcategory.key, subsubcategories: answer.subsubcategories }] }];
}

/** Strings are written as JSON strings, which YAML reads back unchanged whatever they contain. */
export function articleFile(answer: Answer, slot: Slot, meta: ArticleMeta): string {
  const q = (s: string) => JSON.stringify(s);
  const [entity] = entitiesFor(slot, answer);
  const sub = entity!.subcategories![0]!;
  return [
    '---',
    `title: ${q(answer.title)}`,
    `slug: ${answer.slug}`,
    `description: ${q(answer.description)}`,
    `author: ${q(meta.author)}`,
    `date: ${meta.date}`,
    `locale: ${meta.locale}`,
    'entities:',
    `  - category: ${entity!.category}`,
    '    subcategories:',
    `      - subcategory: ${sub.subcategory}`,
    `        subsubcategories: [${sub.subsubcategories.map(q).join(', ')}]`,
    '---',
    '',
    `${answer.body.trim()}\n`,
  ].join('\n');
}
