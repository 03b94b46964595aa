/**
 * Text from elsewhere (a bucket's object names, a storage service's messages) as a terminal or a log may show it:
 * control characters and the bidirectional overrides written as `\u{1b}`, so that a name cannot set a window's title,
 * clear the screen, move the cursor over the lines before it or hide those after (an object name may hold any
 * character but CR and LF). Line feeds and tabs stay: felt's own lines use them.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it writes out as text
const UNSHOWABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  // A CRLF line end (a prompt file saved on Windows, a service's message) is a line end; a lone CR would rewrite the line.
  return text.replace(/\r\n/g, '\n').replace(UNSHOWABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}

// JSON.stringify escapes U+0000-U+001F only.
const RAW_IN_JSON = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** JSON text (--json) with the control characters and bidirectional overrides JSON.stringify leaves raw escaped: the same value. */
export function jsonSafe(json: string): string {
  return json.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The most of one line printed: a provider's error message of 5 MB was printed whole, twice. */
export const LINE_CHARS = 2000;

/**
 * terminalSafe for a line that must stay one line (a `skipped:`, `failed:` or `felt:` line, a progress item): its line
 * breaks written out too, so that a name or a provider's message cannot print a second, forged line, and cut at
 * LINE_CHARS.
 */
export function oneLine(text: string): string {
  const cut = text.length > LINE_CHARS;
  const line = terminalSafe(cut ? text.slice(0, LINE_CHARS) : text).replace(/\n/g, '\\u{a}');
  return cut ? `${line}… (${(text.length - LINE_CHARS).toLocaleString('en')} more characters)` : line;
}
