/**
 * Incremental builds. Each page's cache key is a digest of everything that
 * makes its files: its spec (which holds its article's digest) and the
 * build-wide template key (felt's code, UI strings, settings, categories,
 * shell, asset names). Article pages also record the digest of their inputs
 * (articlePages.ts): when that is unchanged, so are the spec and its key, and
 * the spec is not even made. A rebuild renders only the pages whose key changed
 * and rewrites only the other files whose bytes changed (see commit.ts); the
 * manifest that remembers the keys lives in the output folder, so it always
 * describes the files next to it.
 */
import crypto, { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
export { feltCodeVersion } from './codeVersion.ts';

export const MANIFEST_FILE = '.felt/manifest.json';
const MANIFEST_VERSION = 3;

export interface BuildManifest {
  version: number;
  templateKey: string;
  /** page path → cache key */
  pages: Record<string, string>;
  /** page path → digest of what the page is made from, for pages that know it before they are made (article pages). */
  inputs: Record<string, string>;
  /** Files that are not pages (assets, feeds, sitemaps, search index, static files) → digest of their bytes. */
  others: Record<string, string>;
}

// crypto.hash() (Node 20.12+) hashes in one call, several times cheaper than createHash() for the
// thousands of small inputs a build digests; older Node 20 releases fall back to createHash().
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'base64url') => string }).hash;

export function digest(data: string | Uint8Array): string {
  const full = oneShot ? oneShot('sha256', data, 'base64url') : createHash('sha256').update(data).digest('base64url');
  return full.slice(0, 22);
}

export function readManifest(outDir: string): BuildManifest | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as BuildManifest;
    return manifest.version === MANIFEST_VERSION ? manifest : undefined;
  } catch {
    return undefined;
  }
}

export function newManifest(templateKey: string): BuildManifest {
  return { version: MANIFEST_VERSION, templateKey, pages: {}, inputs: {}, others: {} };
}
