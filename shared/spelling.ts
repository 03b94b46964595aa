/**
 * One typo between two words: the search box's tolerance (site/islands/search/text.ts) and the "did you mean" of a
 * misspelt settings field (shared/validation.ts). Free of Node, so the browser's search bundle takes it too.
 */

/** Whether a and b differ by exactly one insertion, deletion, substitution or swap of neighbours. */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The known name that `wanted` misspells (one typo, or only its letters' case), if exactly one does. */
export function meantName(wanted: string, known: readonly string[]): string | undefined {
  const lower = wanted.toLowerCase();
  const close = known.filter((name) => name !== wanted && (name.toLowerCase() === lower || oneEdit(name.toLowerCase(), lower)));
  return close.length === 1 ? close[0] : undefined;
}
