/**
 * Near-duplicate bodies (issue 17): an article is reduced to the set of its
 * five-word shingles, and the set to a MinHash signature of 128 values; the
 * share of equal values between two signatures estimates the Jaccard
 * similarity of the two shingle sets (within about ±0.05 around 0.4). A body
 * copied under a new title scores 1, two different articles of the
 * repository's content at most 0.03. Signatures are small (512 bytes), so every
 * article of a locale is compared, and the bucket keeps each article's
 * signature in its metadata instead of being downloaded every night.
 */
const SHINGLE_WORDS = 5;
const SIZE = 128;
const EMPTY = 0xffffffff;

export type Signature = Uint32Array;

/** The words of a text, lowercased as its language does (Turkish İ/ı), Markdown punctuation dropped. */
export function textWords(text: string, language: string): string[] {
  return (
    text
      .normalize('NFC')
      .toLocaleLowerCase(language)
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function signatureOf(text: string, language: string): Signature | undefined {
  const words = textWords(text, language);
  if (words.length < SHINGLE_WORDS) return undefined;
  const signature = new Uint32Array(SIZE).fill(EMPTY);
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
    const shingle = fnv1a(words.slice(i, i + SHINGLE_WORDS).join(' '));
    // The 128 hash functions are h1 + k·h2 (Kirsch and Mitzenmacher): two mixes a shingle instead of 128.
    const h1 = mix(shingle);
    const h2 = mix(shingle ^ 0x9e3779b9) | 1;
    for (let k = 0; k < SIZE; k++) {
      const h = (h1 + Math.imul(k, h2)) >>> 0;
      if (h < signature[k]!) signature[k] = h;
    }
  }
  return signature;
}

/** Estimated Jaccard similarity of the two shingle sets, 0 to 1. */
export function similarity(a: Signature, b: Signature): number {
  let same = 0;
  for (let k = 0; k < SIZE; k++) if (a[k] === b[k]) same++;
  return same / SIZE;
}

export function encodeSignature(signature: Signature): string {
  return Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64');
}

/** undefined for anything that is not a signature of this size (an older or edited metadata value). */
export function decodeSignature(value: string | undefined): Signature | undefined {
  if (!value) return undefined;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== SIZE * 4) return undefined;
  const signature = new Uint32Array(SIZE);
  for (let k = 0; k < SIZE; k++) signature[k] = bytes.readUInt32LE(k * 4);
  return signature;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** murmur3's finaliser. */
function mix(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
