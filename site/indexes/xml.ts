const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** The characters XML 1.0 cannot hold at all (a class's body), and those it must escape. */
const UNHOLDABLE = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF';
const ESCAPED = Object.keys(XML_ESCAPES).join('');
const NEEDS_ESCAPE = new RegExp(`[${UNHOLDABLE}${ESCAPED}]`);
const UNHOLDABLE_ALL = new RegExp(`[${UNHOLDABLE}]`, 'g');
const ESCAPED_ALL = new RegExp(`[${ESCAPED}]`, 'g');

/** Escapes text for XML, dropping characters XML 1.0 cannot hold at all. */
export function escapeXml(text: string): string {
  // Most text (every URL of a sitemap) has nothing to escape: one scan, where the two replacements are two.
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(UNHOLDABLE_ALL, '').replace(ESCAPED_ALL, (c) => XML_ESCAPES[c]!);
}
