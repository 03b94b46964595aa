/**
 * A fast path for the frontmatter felt itself writes: `key: value` lines,
 * double-quoted or plain single-line strings, ISO days, `[]` or a flow list
 * of double-quoted strings, and block lists of such maps indented two spaces
 * per level (an article's `entities`). The full YAML parser (yamlSource.ts)
 * costs about 65 µs an article, most of a cold build's loading; this reads the
 * same blocks in a few.
 *
 * It is strict, not clever: anything outside that grammar (a comment, a blank
 * line, a single quote, an escape, a number, a boolean, a tab, a trailing
 * space, a repeated key, a different indent) answers undefined, and the
 * caller parses the block with the full parser, which also gives its errors
 * and lines. Whatever this accepts, it returns exactly what the full parser
 * returns (tests/site/simpleYaml.test.ts checks every fixture and generated
 * blocks against it).
 */

import { LIMITS } from '../../shared/limits.ts';

type Value = string | Value[] | { [key: string]: Value };

/** Keys felt writes: a letter, then letters, digits or underscores (no __proto__, nothing YAML reads as another type). */
const KEY = /^([A-Za-z][A-Za-z0-9_]*):(?: (.*))?$/;
/** An ISO day, which felt's YAML reads as the text it is (yamlSource.ts, plainDay). */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * A plain string the core schema cannot read as anything else: it starts
 * with a letter (so no number, date, indicator or null "~"), continues with
 * letters, digits, single spaces and . _ ' - (so no ": ", " #", flow
 * indicators or quotes), and is not a boolean or null word.
 */
const PLAIN = /^\p{L}(?:[\p{L}\p{N}._'-]| (?! ))*$/u;
const PLAIN_END = /[\p{L}\p{N}._'-]$/u;
const RESERVED = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE|[Nn]ull|NULL)$/;
/**
 * Inside double quotes: printable characters but the quote and the
 * backslash (no escapes to decode). C0/C1 controls, DEL, the byte-order mark
 * and the line and paragraph separators are left to the full parser.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it must refuse
const QUOTED = /^"([^"\\\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029]*)"$/;
/** Deeper than this, the full parser (which enforces the nesting limit) decides. */
const MAX_DEPTH = 8;

/** The block's data, or undefined when it is not in the simple form (then parse it with parseYaml). */
export function readSimpleYaml(block: string): Record<string, unknown> | undefined {
  // gray-matter hands over the block from just after the opening ---: it starts with that line's end.
  if (block.charCodeAt(0) !== 10) return undefined;
  // Over the size limit (at most three bytes a UTF-16 unit), the full parser refuses it.
  if (block.length * 3 > LIMITS.frontmatterBytes && Buffer.byteLength(block) > LIMITS.frontmatterBytes) return undefined;
  // It ends just before the closing fence's line break: a blank last line is a blank line, which the full parser reads.
  const lines = block.slice(1).split('\n');
  const reader = { lines, at: 0 };
  const map = readMap(reader, 0, 0);
  return map && reader.at === lines.length ? map : undefined;
}

interface Reader {
  lines: string[];
  at: number;
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/**
 * A block map whose keys sit at column `indent`. `first`, when given, is the
 * first key's text already cut from a list item's "- " line.
 */
function readMap(reader: Reader, indent: number, depth: number, first?: string): Record<string, Value> | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const map: Record<string, Value> = {};
  let text = first;
  for (;;) {
    if (text === undefined) {
      if (reader.at >= reader.lines.length) break;
      const line = reader.lines[reader.at]!;
      const lineIndent = indentOf(line);
      if (lineIndent < indent) break;
      if (lineIndent > indent) return undefined;
      text = line.slice(indent);
      // A list item at this column belongs to the caller's list.
      if (text.startsWith('- ')) break;
    }
    reader.at++;
    const pair = KEY.exec(text);
    text = undefined;
    if (!pair) return undefined;
    const key = pair[1]!;
    if (RESERVED.test(key) || Object.hasOwn(map, key)) return undefined;
    const rest = pair[2];
    let value: Value | undefined;
    if (rest === undefined) {
      // `key:` and its list on the next lines, two spaces further in.
      value = readList(reader, indent + 2, depth + 1);
    } else value = readScalarOrFlow(rest);
    if (value === undefined) return undefined;
    map[key] = value;
  }
  return Object.keys(map).length ? map : undefined;
}

/** A block list at column `indent`: every item a map, its first key on the "- " line. */
function readList(reader: Reader, indent: number, depth: number): Value[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const items: Value[] = [];
  while (reader.at < reader.lines.length) {
    const line = reader.lines[reader.at]!;
    const lineIndent = indentOf(line);
    if (lineIndent < indent) break;
    if (lineIndent > indent || !line.startsWith('- ', indent)) return undefined;
    const item = readMap(reader, indent + 2, depth + 1, line.slice(indent + 2));
    if (!item) return undefined;
    items.push(item);
  }
  return items.length ? items : undefined;
}

function readScalarOrFlow(text: string): Value | undefined {
  const first = text.charCodeAt(0);
  if (first === 0x22) return QUOTED.exec(text)?.[1];
  if (first === 0x5b) return readFlowList(text);
  if (DAY.test(text)) return text;
  if (PLAIN.test(text) && PLAIN_END.test(text) && !RESERVED.test(text)) return text;
  return undefined;
}

/** `[]` or `["a", "b"]`: double-quoted items, one comma and one space between. */
function readFlowList(text: string): string[] | undefined {
  if (text === '[]') return [];
  if (!text.endsWith('"]') || !text.startsWith('["')) return undefined;
  const items: string[] = [];
  for (const part of text.slice(1, -1).split(', ')) {
    const item = QUOTED.exec(part)?.[1];
    if (item === undefined) return undefined;
    items.push(item);
  }
  return items;
}
