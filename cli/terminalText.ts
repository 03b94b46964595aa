/**
 * Text from elsewhere (a bucket's object names, a storage service's messages) as a terminal or a log may show it:
 * control characters and the bidirectional overrides written as `\u{1b}`, so that a name cannot set a window's title,
 * clear the screen, move the cursor over the lines before it or hide those after (an object name may hold any
 * character but CR and LF). Line feeds and tabs stay: felt's own lines use them.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it writes out as text
const UNSHOWABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(UNSHOWABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}
