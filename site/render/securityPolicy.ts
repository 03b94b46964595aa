/**
 * The site's Content Security Policy: only the site's own scripts run (no inline script, no eval, no third-party
 * origin). `felt serve` sends it as a header; every page carries it in a <meta> too, because the hosts `felt deploy`
 * targets (a Cloud Storage bucket) send no header of the site's choosing, and there the markup an article, an ad or
 * a redirect brought would otherwise be held back by nothing but its sanitising.
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
];

/** The header: frame-ancestors as well, which a <meta> cannot carry (browsers ignore it there, with a warning). */
export const CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'self'"].join('; ');

/** The policy of the <meta>: the header's but frame-ancestors. */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');

/** The <meta> every page's head opens with, before anything it loads. */
export const CONTENT_SECURITY_POLICY_META = `<meta http-equiv="Content-Security-Policy" content="${META_CONTENT_SECURITY_POLICY}">`;
