/**
 * felt's content digest: SHA-256 in base64url, cut to 22 characters (132 bits). Build cache keys, the
 * manifest's versions of files, picture keys and the names of cached bundles are all this, so any two of them
 * computed from the same bytes agree. One variant, hexDigest, keeps the hex names felt already publishes.
 */
import crypto, { createHash } from 'node:crypto';

type Data = string | Uint8Array;

const DIGEST_CHARS = 22;

// crypto.hash() (Node 20.12+) hashes in one call, several times cheaper than createHash() for the
// thousands of small inputs a build digests; older Node 20 releases fall back to createHash().
const oneShot = (crypto as { hash?: (algorithm: string, data: Data, encoding: 'base64url') => string }).hash;

export function digest(data: Data): string {
  const full = oneShot ? oneShot('sha256', data, 'base64url') : createHash('sha256').update(data).digest('base64url');
  return full.slice(0, DIGEST_CHARS);
}

/**
 * digest() of the pieces one after the other, fed to the hash one by one: for inputs read a piece at a time (every
 * file of a folder), which would otherwise be copied into one buffer only to be hashed.
 */
export function digestPieces(pieces: Iterable<Data>): string {
  const hash = createHash('sha256');
  for (const piece of pieces) hash.update(piece);
  return hash.digest('base64url').slice(0, DIGEST_CHARS);
}

/**
 * The first `chars` hex characters of the pieces' SHA-256. Only for what felt has always kept in hex: the static
 * query file that every page links and the build's compilation hash (16), the search index's folders that its
 * manifest lists (12), and an article's digest (64), which the article cache and the dev overlay hold. digest()
 * would rename them: every page and the manifest made, uploaded and fetched again by visitors who already hold them,
 * and every cached article read again.
 */
export function hexDigest(pieces: Iterable<Data>, chars: number): string {
  const hash = createHash('sha256');
  for (const piece of pieces) hash.update(piece);
  return hash.digest('hex').slice(0, chars);
}
