/**
 * Conditional GET and HEAD for `felt serve`: whether the copy a client holds
 * is still current, by If-None-Match (a list, weak tags, `*`) or else
 * If-Modified-Since, as `fresh` compares them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

export interface Validators {
  etag: string;
  lastModified: string;
}

/**
 * True when the answer is 304. The request's Cache-Control is left out:
 * `no-cache` tells caches to ask the origin, and the origin still answers a
 * matching tag with 304 (RFC 9110, 13.1.2); fresh would send the whole file
 * instead, and Node's fetch adds `no-cache` to every conditional request.
 */
export function isNotModified(headers: IncomingHttpHeaders, validators: Validators): boolean {
  const conditions = { 'if-none-match': headers['if-none-match'], 'if-modified-since': headers['if-modified-since'] };
  return fresh(conditions, { etag: validators.etag, 'last-modified': validators.lastModified });
}
