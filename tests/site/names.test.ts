import { describe, expect, it } from 'vitest';
import { applyDisplayFixes, displayName, emojiRuns, plainName, slugify, toCamelCase, toTitleCase } from '../../shared/names.ts';

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

describe('displayName', () => {
  it.each([
    ['defi wallets', 'en', 'DeFi Wallets'],
    ['defiWallets', 'en', 'DeFi Wallets'],
    ['house-edge', 'en', 'House Edge'],
    ['nft art', 'en', 'NFT Art'],
    ['RTP', 'en', 'RTP'],
    ['Venue Self-Exclusion', 'en', 'Venue Self-Exclusion'],
    ["Texas Hold'em", 'en', "Texas Hold'em"],
    ['Домашние игры', 'ru', 'Домашние игры'],
    ['canlı bahis', 'tr', 'Canlı bahis'],
  ])('%s (%s) → %s', (input, lang, expected) => expect(displayName(input, lang)).toBe(expected));
});

describe('plainName', () => {
  it.each([
    ['💰 Betting Strategies', 'Betting Strategies'],
    ['⏱️ Setting Limits for Yourself', 'Setting Limits for Yourself'],
    ['👨‍👩‍👧 Family 🇹🇷 games', 'Family games'],
    ['Poker 101', 'Poker 101'],
  ])('%s → %s', (input, expected) => expect(plainName(input)).toBe(expected));
});

describe('slugify', () => {
  it('strips accents and joins words with single hyphens', () => {
    expect(slugify('Zeynep Arslan')).toBe('zeynep-arslan');
    expect(slugify('  Café -- Crème ')).toBe('cafe-creme');
  });
});

describe('emojiRuns', () => {
  it('cuts a name into its emoji and its words, in order, and gives the same runs for the same text again', () => {
    const runs = emojiRuns('💰 Betting Strategies 🃏🎲');
    expect(runs).toEqual([
      { text: '💰', emoji: true },
      { text: ' Betting Strategies ', emoji: false },
      { text: '🃏🎲', emoji: true },
    ]);
    expect(emojiRuns('💰 Betting Strategies 🃏🎲')).toEqual(runs);
    expect(emojiRuns('Poker')).toEqual([{ text: 'Poker', emoji: false }]);
    expect(emojiRuns('')).toEqual([]);
  });
});
