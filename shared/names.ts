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

/** "bankrollManagement" → "Bankroll Management"; "defiBetting" → "DeFi Betting". */
export function toTitleCase(text: string): string {
  return words(text)
    .map((word) => DISPLAY_FIXES[word.toLowerCase()] ?? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

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
