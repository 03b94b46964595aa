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
  const lines = new Map<string, number>();
  // Only the frontmatter is scanned for key lines, never the whole body.
  const close = text.startsWith('---\n') ? text.indexOf('\n---', 3) : -1;
  const head = close > 0 ? text.slice(0, close).split('\n') : [];
  for (let i = 1; i < head.length; i++) {
    const key = /^([A-Za-z_][\w-]*)\s*:/.exec(head[i]!)?.[1];
    if (key && !lines.has(key)) lines.set(key, i + 1);
  }
  return { data, body: parsed.content, lines, bodyLine: head.length + 2 };
}
