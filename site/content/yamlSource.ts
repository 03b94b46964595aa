/**
 * YAML as felt reads it (frontmatter): the position of every node is kept,
 * so a problem names its line when it is made, and what YAML could do beyond
 * plain data is refused with its line: tags outside the core schema, and
 * aliases that expand to too much (a "billion laughs" block is refused, not
 * expanded). `yaml` rather than js-yaml (gray-matter's default) for both.
 */
import { type Document, type DocumentOptions, isCollection, isMap, isNode, isScalar, isSeq, LineCounter, type Node, parseDocument, type ParseOptions, type ScalarTag, type SchemaOptions, visit, type YAMLError } from 'yaml';
import type { FieldPath } from '../../shared/validation.ts';
import { FrontmatterError } from './grayMatter.ts';

/**
 * A plain day (`date: 2026-03-14`) stays the text it is: YAML's timestamp type
 * would turn `2026-02-30` into March 2 before the schema could see it (issue 16).
 */
const plainDay: ScalarTag = { tag: 'tag:yaml.org,2002:timestamp', default: true, test: /^\d{4}-\d{2}-\d{2}$/, resolve: (text) => text };

/**
 * YAML 1.2's core schema (strings, numbers, booleans, null, lists, maps), no
 * explicit tags beyond it, plus the timestamp type for full timestamps: js-yaml
 * read `date: 2024-05-01T23:30:00-05:00` as a date, and the schema turns a Date
 * into its ISO day exactly as before. Plain days come first, as text.
 */
const YAML_OPTIONS: DocumentOptions & ParseOptions & SchemaOptions = { schema: 'core', customTags: [plainDay, 'timestamp'], resolveKnownTags: false, uniqueKeys: true, prettyErrors: false };

/** Aliases resolved per document at most (yaml counts nested expansion too): frontmatter has no use for more. */
const MAX_ALIAS_COUNT = 50;

/** Warnings that mean a tag felt does not read (`!custom`, `!!binary`): refused like errors. */
const REFUSED_WARNINGS = new Set(['TAG_RESOLVE_FAILED', 'BAD_COLLECTION_TYPE']);

export interface YamlSource {
  data: unknown;
  /** 1-based line of a field (its key, or its list item), of its nearest ancestor when absent; none at the top. */
  lineOf(path: FieldPath): number | undefined;
}

/** YAML text → its data and the lines of its fields; a FrontmatterError, at its line in the text, when felt does not read it. */
export function parseYaml(text: string): YamlSource {
  const lines = new LineCounter();
  const document = parseDocument(text, { ...YAML_OPTIONS, lineCounter: lines });
  const refused: YAMLError | undefined = document.errors[0] ?? document.warnings.find((w) => REFUSED_WARNINGS.has(w.code));
  if (refused) throw new FrontmatterError(refused.message.split('\n')[0] ?? refused.code, lines.linePos(errorOffset(document, refused)).line);
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // Alias resolution is all that can fail here, and its error has no position: point at the first alias.
    const alias = firstAlias(document);
    const line = alias === undefined ? 1 : lines.linePos(alias).line;
    if (/excessive alias/i.test(String(error))) throw new FrontmatterError('its aliases (*name) expand to too much data', line, 'write the values out instead of repeating aliases');
    throw new FrontmatterError(error instanceof Error ? error.message : String(error), line);
  }
  return {
    data,
    lineOf: (path) => {
      const offset = fieldOffset(document, path);
      return offset === undefined ? undefined : lines.linePos(offset).line;
    },
  };
}

/** Offset of a field's key or list item; the nearest ancestor's when it is absent; none at the top. */
function fieldOffset(document: Document, path: FieldPath): number | undefined {
  let node: unknown = document.contents;
  let offset: number | undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(segment));
      if (!pair) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item) break;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else break;
  }
  return offset;
}

/**
 * Where to point for an error. yaml reports an unclosed quote or bracket
 * where it gave up, often lines later (the next field, or the closing ---);
 * the line where the quote or bracket opens is the one to fix.
 */
function errorOffset(document: Document, error: YAMLError): number {
  const at = error.pos[0];
  if (error.code !== 'MISSING_CHAR' && error.code !== 'BAD_INDENT') return at;
  let opened: number | undefined;
  visit(document, (_key, node) => {
    if (!isNode(node) || !node.range || node.range[0] > at || node.range[2] < at) return;
    const unclosable = (isCollection(node) && node.flow) || (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'));
    // The innermost such node: visit goes from the outside in.
    if (unclosable) opened = node.range[0];
  });
  return opened ?? at;
}

/** Offset of the first alias (*name): where an excess of them is reported. */
function firstAlias(document: Document): number | undefined {
  let found: number | undefined;
  visit(document, {
    Alias(_key, node) {
      found = node.range?.[0];
      return visit.BREAK;
    },
  });
  return found;
}
