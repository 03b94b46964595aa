import { describe, expect, it } from 'vitest';
import type { Article, CategoryNode } from '../../shared/types.ts';
import { buildCategoryIndex, placeArticle } from '../../site/model/categoryIndex.ts';

const leaf = (key: string): CategoryNode => ({ key, slug: key.toLowerCase(), title: { en: key }, description: { en: key }, children: [] });
const categories: CategoryNode[] = [
  { ...leaf('bettingStrategies'), slug: 'betting-strategies', children: [leaf('bankrollManagement'), leaf('other')] },
  { ...leaf('gameRules'), slug: 'game-rules', children: [leaf('pokerGameRules'), leaf('other')] },
];

function article(id: string, entities: Article['entities']): Article {
  return {
    id,
    file: `${id}.md`,
    slug: id,
    title: id,
    description: '',
    author: 'A',
    date: '2026-01-01',
    locale: 'en_US',
    entities,
    source: `${id}.md`,
    words: 0,
    digest: id,
  };
}

describe('category index', () => {
  it('files an entity under its subcategory and each subsubcategory', () => {
    const index = buildCategoryIndex(
      [article('a', [{ category: 'bettingStrategies', subcategories: [{ subcategory: 'bankrollManagement', subsubcategories: ['Kelly', 'Units'] }] }])],
      categories,
    );
    expect(index.entries).toEqual([
      { category: 'bettingStrategies', subcategory: 'bankrollManagement', subsubcategory: 'Kelly', articleId: 'a' },
      { category: 'bettingStrategies', subcategory: 'bankrollManagement', subsubcategory: 'Units', articleId: 'a' },
    ]);
  });

  it('normalises category and subcategory names to camelCase', () => {
    const placements = placeArticle(
      article('b', [{ category: 'Betting Strategies', subcategories: [{ subcategory: 'bankroll management', subsubcategories: [] }] }]),
      categories,
    );
    expect(placements.map((p) => [p.category.key, p.subcategory.key])).toEqual([['bettingStrategies', 'bankrollManagement']]);
  });

  it('files an unknown or absent subcategory under "other"', () => {
    const index = buildCategoryIndex(
      [
        article('c', [{ category: 'gameRules', subcategories: [{ subcategory: 'cryptoBooks', subsubcategories: [] }] }]),
        article('d', [{ category: 'gameRules' }]),
      ],
      categories,
    );
    expect(index.entries.map((e) => [e.articleId, e.subcategory, e.subsubcategory])).toEqual([
      ['c', 'other', null],
      ['d', 'other', null],
    ]);
    expect(index.bySubcategory.get('gameRules/other')).toEqual(['c', 'd']);
  });

  it('ignores entities of unknown categories and lists an article once per category', () => {
    const index = buildCategoryIndex(
      [
        article('e', [
          { category: 'astrology' },
          {
            category: 'gameRules',
            subcategories: [
              { subcategory: 'pokerGameRules', subsubcategories: [] },
              { subcategory: 'other', subsubcategories: [] },
            ],
          },
        ]),
      ],
      categories,
    );
    expect(index.entries.every((e) => e.category === 'gameRules')).toBe(true);
    expect(index.byCategory.get('gameRules')).toEqual(['e']);
    expect(index.byCategory.get('bettingStrategies')).toEqual([]);
    expect(placeArticle(article('f', [{ category: 'astrology' }]), categories)).toEqual([]);
  });
});
