import { describe, expect, it } from 'vitest';
import { applyDisplayFixes, slugify, toCamelCase, toTitleCase } from '../../shared/names.ts';

describe('toCamelCase', () => {
  it.each([
    ['Betting Strategies', 'bettingStrategies'],
    ['betting-strategies', 'bettingStrategies'],
    ['bettingStrategies', 'bettingStrategies'],
    ['game rules', 'gameRules'],
    ['POKER guides', 'pokerGuides'],
    ['  winning_tips ', 'winningTips'],
    ['impact of technology on betting', 'impactOfTechnologyOnBetting'],
  ])('%s → %s', (input, expected) => expect(toCamelCase(input)).toBe(expected));
});

describe('toTitleCase', () => {
  it.each([
    ['bankrollManagement', 'Bankroll Management'],
    ['betting-odds-explained', 'Betting Odds Explained'],
    ['defiBetting', 'DeFi Betting'],
    ['nft collectibles', 'NFT Collectibles'],
    ['the rise of NFTs', 'The Rise Of NFTs'],
  ])('%s → %s', (input, expected) => expect(toTitleCase(input)).toBe(expected));
});

describe('display fixes', () => {
  it('fixes DeFi and NFT inside free text only', () => {
    expect(applyDisplayFixes('defi and nft markets, not a definition')).toBe('DeFi and NFT markets, not a definition');
  });
});

describe('slugify', () => {
  it('strips accents and joins words with single hyphens', () => {
    expect(slugify('Zeynep Arslan')).toBe('zeynep-arslan');
    expect(slugify('  Café -- Crème ')).toBe('cafe-creme');
  });
});
