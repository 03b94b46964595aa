/**
 * FNV-1a, 32 bit, over a string's UTF-16 code units: tiny, and the same on
 * every run, platform and runtime. The build (sponsored headings, search
 * buckets) and the browser's search chunk must agree on it, so this file
 * imports nothing from Node.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
