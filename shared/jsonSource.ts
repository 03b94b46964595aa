/**
 * JSON files felt reads (a project's site.json, categories.json,
 * authors.json, ads.json and retraction records; felt's own UI strings and
 * generation rules in locales/): strict JSON, read once with the position of
 * every value, so a problem names its line when it is made. JSON.parse keeps
 * no positions; jsonc-parser's tree does. jsonc-parser also reads comments
 * and trailing commas, which JSON does not allow: both are refused here with
 * their line, as any other syntax error.
 *
 * This is the file read and its syntax, without a schema: json.ts validates
 * the value (readJsonFile) with zod, which costs 80 ms to load. What must
 * read a settings file before that, at a cold build's start (the early share
 * cards, settingsFiles.ts), reads it here, as the loader does.
 */
import { createScanner, type Node, type ParseError, parseTree, printParseErrorCode, visit } from 'jsonc-parser';
import type { Problem } from './errors.ts';
import { readInput, type InputLimits } from './inputFile.ts';
import { LIMIT_HINT, LIMITS } from './limits.ts';
import { displayPath } from './paths.ts';
import type { FieldPath } from './validation.ts';

export interface JsonSource {
  value: unknown;
  /** 1-based line of a field (of its nearest ancestor that exists, for a missing one). */
  lineOf(path: FieldPath): number;
}

export interface JsonSyntaxError {
  line: number;
  message: string;
  /** Set when the text is refused for a limit (nesting), not for its syntax. */
  limit?: true;
}

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** What each jsonc-parser error code means to someone editing the file. */
const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'a number is malformed',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'a closing } is expected',
  CloseBracketExpected: 'a closing ] is expected',
  EndOfFileExpected: 'nothing may follow the top-level value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is malformed',
  InvalidEscapeCharacter: 'a backslash escape is not valid JSON',
  InvalidCharacter: 'a string holds a control character (write it escaped, like \\n)',
};

/**
 * Strict JSON text → its value and the lines of its fields, or the first
 * syntax error with its line. Nesting and the number of values are measured
 * first, by jsonc-parser's own scanner (flat, no recursion): its parser
 * recurses once per level, so a file nested 100,000 deep must be refused, not
 * overflow the stack; and validation costs memory for every wrong value.
 * The value comes from JSON.parse; the tree of positions, which costs ten
 * times the file's size in memory, is built only when a line is asked for.
 */
export function parseJson(source: string): { ok: true; json: JsonSource } | { ok: false; error: JsonSyntaxError } {
  const text = source.replace(/^\uFEFF/, '');
  let lines: ((offset: number) => number) | undefined;
  const lineAt = (offset: number) => (lines ??= lineCounter(text))(offset);
  if (text.trim() === '') return { ok: false, error: { line: 1, message: 'the file is empty' } };
  const over = overLimits(text);
  if (over) return { ok: false, error: { line: lineAt(over.offset), message: over.message, limit: true } };
  let value: unknown;
  try {
    // JSON.parse is the reference for what JSON is (and "__proto__" stays a
    // plain key); what it refuses, jsonc-parser names in an editor's words.
    value = JSON.parse(text);
  } catch (error) {
    const first = firstSyntaxError(text);
    if (first) return { ok: false, error: syntaxError(text, first, lineAt) };
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    return { ok: false, error: { line: position ? lineAt(Number(position)) : 1, message: (error as Error).message } };
  }
  let tree: Node | undefined;
  return {
    ok: true,
    json: {
      value,
      lineOf: (path) => {
        tree ??= parseTree(text, [], STRICT);
        return tree ? lineAt(offsetOf(tree, path)) : 1;
      },
    },
  };
}

// jsonc-parser's SyntaxKind values (a const enum, which isolatedModules cannot read from its declarations).
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const NULL_KEYWORD = 7;
const NUMERIC_LITERAL = 11;
const EOF = 17;

/**
 * Where the text first nests deeper than LIMITS.nestingDepth or holds more
 * than LIMITS.jsonValues values, keys included, as jsonc-parser tokenises it
 * (strings, comments); none when it is within both.
 */
function overLimits(text: string): { offset: number; message: string } | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  let values = 0;
  for (let kind: number = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET || (kind >= NULL_KEYWORD && kind <= NUMERIC_LITERAL)) {
      // null, true, false, strings (keys too) and numbers are kinds 7 to 11.
      if (++values > LIMITS.jsonValues)
        return { offset: scanner.getTokenOffset(), message: `holds more values and keys than the limit of ${LIMITS.jsonValues.toLocaleString('en')}` };
    }
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      if (++depth > LIMITS.nestingDepth)
        return { offset: scanner.getTokenOffset(), message: `lists and objects are nested deeper than the limit of ${LIMITS.nestingDepth} levels` };
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/** The first error jsonc-parser finds, without building a tree. */
function firstSyntaxError(text: string): ParseError | undefined {
  let first: ParseError | undefined;
  visit(text, { onError: (error, offset, length) => void (first ??= { error, offset, length }) }, STRICT);
  return first;
}

function syntaxError(text: string, error: ParseError, lineAt: (offset: number) => number): JsonSyntaxError {
  // A trailing comma reads as "value expected" at the closing bracket; name it, on the comma's line.
  const before = text.slice(0, error.offset).trimEnd();
  if (/[}\]]/.test(text[error.offset] ?? '') && before.endsWith(','))
    return { line: lineAt(before.length - 1), message: 'a trailing comma is not allowed in JSON' };
  return { line: lineAt(error.offset), message: SYNTAX_MESSAGES[printParseErrorCode(error.error)] ?? 'not valid JSON' };
}

/** Offset of a field: its key for a property, the value for an array element; the nearest ancestor when absent. */
function offsetOf(root: Node, path: FieldPath): number {
  let node = root;
  let offset = root.offset;
  for (const segment of path) {
    let next: Node | undefined;
    let at: number | undefined;
    if (node.type === 'object') {
      // The last of duplicate keys, as JSON.parse keeps the last.
      const property = node.children?.findLast((p) => p.children?.[0]?.value === String(segment));
      next = property?.children?.[1];
      at = property?.offset;
    } else if (node.type === 'array') {
      next = node.children?.[Number(segment)];
      at = next?.offset;
    }
    if (!next || at === undefined) break;
    node = next;
    offset = at;
  }
  return offset;
}

/** 1-based line of a character offset, by binary search over the line starts. */
export function lineCounter(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/** A JSON file read: missing (the caller says what that means), refused (its problem is listed), or its value. */
export type JsonRead = { kind: 'missing' } | { kind: 'refused' } | { kind: 'json'; json: JsonSource };

/**
 * Reads a JSON file within its limits (inputFile.ts) and parses it. A file
 * that is there but not read (over its limit, not a file at all, out of the
 * content folder) or not valid JSON is added to `problems` with its file and
 * line; a missing file is left to the caller.
 */
export async function readJsonSource(file: string, problems: Problem[], limits: InputLimits): Promise<JsonRead> {
  const shown = displayPath(file);
  const read = await readInput(file, limits);
  if (read.kind === 'missing') return read;
  if (read.kind === 'refused') {
    problems.push({ file: shown, severity: 'error', message: read.message, hint: read.hint });
    return { kind: 'refused' };
  }
  const parsed = parseJson(read.bytes.toString('utf8'));
  if (!parsed.ok) {
    const { line, message, limit } = parsed.error;
    problems.push(
      limit
        ? { file: shown, line, severity: 'error', message, hint: LIMIT_HINT }
        : { file: shown, line, severity: 'error', message: `is not valid JSON: ${message}`, hint: 'fix the JSON syntax' },
    );
    return { kind: 'refused' };
  }
  return { kind: 'json', json: parsed.json };
}
