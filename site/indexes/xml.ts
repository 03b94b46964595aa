const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

// eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot hold, and those it must escape
const NEEDS_ESCAPE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF&<>"']/;

/** Escapes text for XML, dropping characters XML 1.0 cannot hold at all. */
export function escapeXml(text: string): string {
  // Most text (every URL of a sitemap) has nothing to escape: one scan, where the two replacements are two.
  if (!NEEDS_ESCAPE.test(text)) return text;
  return (
    text
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot hold
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
  );
}
