/**
 * Name helpers of SPEC section 5: category names arrive in many shapes
 * ("Betting Strategies", "betting-strategies", "bettingStrategies") and are
 * compared in camelCase; keys are shown as Title Case with spaces.
 */

/** Splits any of camelCase, kebab-case, snake_case or spaced text into words. */
function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      // "XMLHttp" → "XML Http", but a plural acronym ("NFTs") stays one word.
      .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
  );
}

/** "Betting Strategies" → "bettingStrategies"; "game-rules" → "gameRules". */
export function toCamelCase(text: string): string {
  return words(text)
    .map((word, i) => {
      const lower = word.toLowerCase();
      return i === 0 ? lower : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join('');
}

/** Words whose capitalisation is fixed whatever the input ("defi" → "DeFi"). */
const DISPLAY_FIXES: Record<string, string> = { defi: 'DeFi', nft: 'NFT', nfts: 'NFTs' };

/** "bankrollManagement" → "Bankroll Management"; "defiBetting" → "DeFi Betting"; an acronym ("RTP") stays as it is. */
export function toTitleCase(text: string): string {
  return words(text)
    .map((word) => DISPLAY_FIXES[word.toLowerCase()] ?? (isAcronym(word) ? word : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join(' ');
}

function isAcronym(word: string): boolean {
  return word.length > 1 && word === word.toUpperCase() && word !== word.toLowerCase();
}

/** A key ("defiWallets", "house-edge", "self_exclusion"): camelCase with a hump, or lowercase words joined by - or _. */
const KEY_PATTERN = /^(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[a-z0-9]+(?:[-_][a-z0-9]+)+)$/;

/**
 * A name made from a key or a topic, as readers see it (SPEC section 5): a
 * key becomes spaced words ("defiWallets" → "DeFi Wallets"); a topic keeps its
 * words and their inner capitals ("RTP", "Self-Exclusion"), with "DeFi" and
 * "NFT" fixed. English capitalises every word; the other languages only the
 * first, as their typography does ("Домашние игры" stays as written).
 */
export function displayName(text: string, lang = 'en'): string {
  const trimmed = text.trim();
  const spaced = KEY_PATTERN.test(trimmed) ? toTitleCase(trimmed) : trimmed;
  const fixed = applyDisplayFixes(spaced.replace(/\s+/g, ' '));
  const upperFirst = (word: string) => word.charAt(0).toLocaleUpperCase(lang) + word.slice(1);
  return lang === 'en' ? fixed.split(' ').map(upperFirst).join(' ') : upperFirst(fixed);
}

/**
 * Pictographs and the characters that join or modify them (variation
 * selectors, zero-width joiner, skin tones, keycaps, flags' regional letters).
 */
// An alternation, not one class: a class holding joiners and selectors reads as if it held joined sequences.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F3FB}-\u{1F3FF}]|\uFE0E|\uFE0F|\u200D|\u20E3/gu;

/**
 * A name without its emoji, for where a machine or a screen reader reads it:
 * <title>, JSON-LD, feeds, breadcrumbs, the "Navigated to …" announcement.
 * Cards and the menu keep the emoji; they decorate there.
 */
export function plainName(text: string): string {
  return text.replace(EMOJI, '').replace(/\s+/g, ' ').trim();
}

export interface TextRun {
  readonly text: string;
  readonly emoji: boolean;
}

/**
 * Runs already cut, by text: a site shows a few dozen category names on every card and menu, and a 10,000-article
 * build cut them 100,000 times (74 ms of CPU over its two threads, `--cpu-prof`). Forgotten past RUNS_REMEMBERED
 * texts, should a caller pass many.
 */
const cutRuns = new Map<string, readonly TextRun[]>();
const RUNS_REMEMBERED = 1024;

/** A name cut into its emoji and its words, in order, for showing the emoji to the eye only. */
export function emojiRuns(text: string): readonly TextRun[] {
  let runs = cutRuns.get(text);
  if (!runs) {
    if (cutRuns.size >= RUNS_REMEMBERED) cutRuns.clear();
    cutRuns.set(text, (runs = cutEmojiRuns(text)));
  }
  return runs;
}

function cutEmojiRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let at = 0;
  for (const match of text.matchAll(EMOJI_RUN)) {
    if (match.index > at) runs.push({ text: text.slice(at, match.index), emoji: false });
    runs.push({ text: match[0], emoji: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) runs.push({ text: text.slice(at), emoji: false });
  return runs;
}
const EMOJI_RUN = new RegExp(`(?:${EMOJI.source})+`, 'gu');

/** Applies the fixed capitalisations inside free text without changing anything else. */
export function applyDisplayFixes(text: string): string {
  return text.replace(/\b(defi|nfts?)\b/gi, (match) => DISPLAY_FIXES[match.toLowerCase()] ?? match);
}

/** A URL slug: lowercase ASCII words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** "Mara Lindqvist" → "mara-lindqvist"; accents stripped, other characters dropped. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
