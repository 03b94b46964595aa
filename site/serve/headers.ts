/** Content types, caching and security headers of `felt serve` and `felt deploy`. */
import path from 'node:path';
import mime from 'mime-types';
import { CONTENT_SECURITY_POLICY } from '../render/securityPolicy.ts';
import { IMMUTABLE, NO_CACHE, ONE_HOUR, REVALIDATE, isImmutablePath } from '../../shared/cacheRules.ts';

/**
 * Where felt answers differently from the common table (mime-types, from
 * mime-db). `.xml`: felt's sitemaps and feeds are UTF-8, and the table names
 * no charset for application/xml; saying it keeps the type every bucket
 * already holds, so a deploy does not patch them all.
 */
const FELT_TYPES: Record<string, string> = {
  '.xml': 'application/xml; charset=utf-8',
};

/** The Content-Type a file is served and deployed with: `; charset=utf-8` on text, octet-stream when nobody knows the extension. */
export function contentTypeFor(file: string): string {
  const extension = path.extname(file).toLowerCase();
  return FELT_TYPES[extension] ?? (mime.contentType(extension) || 'application/octet-stream');
}

/** Hashed files never change under their name; everything else is revalidated. */
export function cacheControlFor(relative: string): string {
  const file = relative.replace(/\\/g, '/').replace(/^\//, '');
  if (isImmutablePath(file)) return IMMUTABLE;
  if (file === 'sw.js' || file === 'search/manifest.json') return NO_CACHE;
  // slice-data/: no build writes it any more, but an older deployment may still hold its files (routes/outputs.ts).
  if (file.endsWith('.html') || file.startsWith('page-data/') || file.startsWith('slice-data/')) return REVALIDATE;
  return ONE_HOUR;
}

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};
