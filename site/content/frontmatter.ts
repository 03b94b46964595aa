/**
 * Frontmatter of articles and info pages: the file split into data and body
 * (grayMatter.ts), the YAML read with the line of every field (yamlSource.ts),
 * and the data validated against a schema, every problem at its line.
 */
import type { z } from 'zod';
import type { Problem } from '../../shared/errors.ts';
import { CONTENT_PARSE, issueProblems, type FieldPath } from '../../shared/validation.ts';
import { FrontmatterError, normaliseSource, splitMatter } from './grayMatter.ts';
import { readSimpleYaml } from './simpleYaml.ts';
import { parseYaml, type YamlSource } from './yamlSource.ts';

export interface SplitFile {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of a frontmatter field (its key, or its list item); line 1, the opening ---, for an absent one. */
  lineOf(path: FieldPath): number;
  /** Line of the body's first line in the file. */
  bodyLine: number;
}

/** The file split in two; a FrontmatterError, with its line in the file, when the frontmatter cannot be read. */
export function splitFrontmatter(source: string): SplitFile {
  const text = normaliseSource(source);
  // gray-matter keeps only the data; the YAML, with its positions, is kept here.
  const documents: YamlSource[] = [];
  const { data, body } = splitMatter(text, (block) => {
    // Frontmatter as felt writes it is read by the fast path; the lines of its
    // fields, wanted only for a problem, come from the full parser then.
    const simple = readSimpleYaml(block);
    if (simple) {
      let full: YamlSource | undefined;
      documents.push({ data: simple, lineOf: (path) => (full ??= parseYaml(block)).lineOf(path) });
      return simple;
    }
    const document = parseYaml(block);
    documents.push(document);
    return document.data;
  });
  // The body is the end of the text: the lines before it are the frontmatter's.
  const before = text.slice(0, text.length - body.length);
  return {
    data: (data ?? {}) as Record<string, unknown>,
    body,
    lineOf: (path) => documents[0]?.lineOf(path) ?? 1,
    bodyLine: before.split('\n').length,
  };
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
  if (!opensFrontmatter(text)) return undefined;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
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

/** Whether the text starts a frontmatter block, as gray-matter sees one: `---` first (after a byte-order mark), not `----`. */
function opensFrontmatter(text: string): boolean {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return text.startsWith('---', start) && text[start + 3] !== '-';
}

/** A failed read keeps the frontmatter it did read (`split`) when only the schema refused it, so checks across files still see its valid fields. */
export type FrontmatterRead<T> = { ok: true; split: SplitFile; data: T } | { ok: false; problems: Problem[]; split?: SplitFile };

/**
 * Frontmatter validated with `schema`: the data, or every problem, each with
 * its line. Articles and info pages are both read through here.
 */
export function readFrontmatter<S extends z.ZodType>(source: string, file: string, schema: S, emptyHint: string): FrontmatterRead<z.output<S>> {
  // A block opened and never closed reads as YAML to the end of the file: the body's first list or heading then
  // made a YAML error far below, about indentation, where the fix is one line under the last field.
  if (opensFrontmatter(source) && !scanFrontmatter(source)) {
    return {
      ok: false,
      problems: [{ file, line: 1, severity: 'error', message: 'frontmatter opened on line 1 is never closed', hint: 'add a line with --- after its last field' }],
    };
  }
  let split: SplitFile;
  try {
    split = splitFrontmatter(source);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return { ok: false, problems: [{ file, line: error.line, severity: 'error', message: `frontmatter ${error.limit ? '' : 'is not valid YAML: '}${error.message}`, hint: error.hint }] };
  }
  if (Object.keys(split.data).length === 0) {
    return { ok: false, problems: [{ file, line: 1, severity: 'error', message: 'no frontmatter found', hint: emptyHint }] };
  }
  const result = schema.safeParse(split.data, CONTENT_PARSE);
  if (!result.success) return { ok: false, problems: issueProblems(result.error, file, split.lineOf), split };
  return { ok: true, split, data: result.data };
}
