/**
 * Splits a markdown file into frontmatter data and body with gray-matter,
 * safely: only YAML is accepted (gray-matter would otherwise evaluate a
 * "---js" block as JavaScript), and the file is normalised first (byte-order
 * mark, CRLF line ends).
 */
import matter from 'gray-matter';

function refuse(language: string) {
  return () => {
    throw new Error(`frontmatter in ${language} is not accepted; use YAML between --- lines`);
  };
}

// gray-matter caches parses by content when called without options; passing
// options keeps memory flat on large sites.
const OPTIONS = {
  language: 'yaml',
  engines: {
    js: refuse('JavaScript'),
    javascript: refuse('JavaScript'),
    coffee: refuse('CoffeeScript'),
    coffeescript: refuse('CoffeeScript'),
    cson: refuse('CSON'),
  },
};

export interface SplitFile {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of each top-level frontmatter key, for error messages. */
  lines: Map<string, number>;
  /** Line of the body's first line in the file. */
  bodyLine: number;
}

export function normaliseSource(source: string): string {
  return source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

export function splitFrontmatter(source: string): SplitFile {
  const text = normaliseSource(source);
  const parsed = matter(text, OPTIONS as never);
  const data = (parsed.data ?? {}) as Record<string, unknown>;
  const block = scanFrontmatter(text);
  const lines = block?.keys ?? new Map<string, number>();
  keepDatesAsWritten(data, text, lines);
  return { data, body: parsed.content, lines, bodyLine: block ? block.closeLine + 1 : 1 };
}

/** A top-level key's line holding a plain date, and at most a comment after it. */
const PLAIN_DATE_LINE = /^[^:]*:[^\S\n]*(\d{4}-\d{2}-\d{2})[^\S\n]*(#.*)?$/;

/**
 * YAML reads an unquoted `date: 2026-02-30` as a Date rolled over to March 2,
 * and nothing after it can tell (issue 16). A top-level date written as a
 * plain YYYY-MM-DD is handed on as that text, so the schema judges what the
 * file says.
 */
function keepDatesAsWritten(data: Record<string, unknown>, text: string, keys: Map<string, number>): void {
  for (const [key, value] of Object.entries(data)) {
    const line = keys.get(key);
    if (!(value instanceof Date) || line === undefined) continue;
    const written = PLAIN_DATE_LINE.exec(text.split('\n', line)[line - 1] ?? '')?.[1];
    if (written) data[key] = written;
  }
}

export interface FrontmatterLines {
  /** Line of the closing `---` fence (1-based, as editors count); the body starts on the next one. */
  closeLine: number;
  /** Line of each top-level key (the first, if a key repeats). */
  keys: Map<string, number>;
}

/** A top-level key: at the start of a line, no indent. */
const KEY = /([A-Za-z_][\w-]*)[^\S\n]*:/y;

/**
 * The one scanner of frontmatter lines: where the block ends and on which
 * line each top-level key sits, for error messages (parseArticle, felt check)
 * and for editing a key in place (the dev title editor). The fences are found
 * the way gray-matter finds them, so every line it names is in the block the
 * parser read: the file starts with `---` (not `----`), and the block ends at
 * the next line starting with `---`. Works on raw text (a byte-order mark,
 * CRLF line ends) and reads no further than the closing fence: the body,
 * most of the file, is never scanned. Undefined when the file has no
 * frontmatter or it never closes.
 */
export function scanFrontmatter(text: string): FrontmatterLines | undefined {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('---', start) || text[start + 3] === '-') return undefined;
  const keys = new Map<string, number>();
  let line = 1;
  for (let end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', end + 1)) {
    line++;
    if (text.startsWith('---', end + 1)) return { closeLine: line, keys };
    KEY.lastIndex = end + 1;
    const key = KEY.exec(text)?.[1];
    if (key && !keys.has(key)) keys.set(key, line);
  }
  return undefined;
}
