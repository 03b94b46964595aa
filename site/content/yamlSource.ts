/**
 * YAML as felt reads it (frontmatter): the position of every node is kept,
 * so a problem names its line when it is made, and what YAML could do beyond
 * plain data is refused with its line: tags outside the core schema, and
 * aliases that expand to too much (a "billion laughs" block is refused, not
 * expanded). `yaml` rather than js-yaml (gray-matter's default) for both.
 * The work is bounded before it starts (shared/limits.ts): the block's size,
 * then its nesting, measured on the flat token stream before the parser
 * builds (and recurses into) a tree.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, DocumentOptions, Node, ParseOptions, ScalarTag, SchemaOptions, YAMLError } from 'yaml';
import { lineCounter } from '../../shared/jsonSource.ts';
import { LIMIT_HINT, LIMITS, tooLarge } from '../../shared/limits.ts';
import type { FieldPath } from '../../shared/validation.ts';
import { FrontmatterError } from './grayMatter.ts';
import { isCalendarDay } from '../../shared/calendar.ts';

/**
 * A plain day (`date: 2026-03-14`) stays the text it is: YAML's timestamp type
 * would turn `2026-02-30` into March 2 before the schema could see it (issue 16).
 */
const plainDay: ScalarTag = { tag: 'tag:yaml.org,2002:timestamp', default: true, test: /^\d{4}-\d{2}-\d{2}$/, resolve: (text) => text };

/** YAML 1.1's timestamp: a day, then optionally a time and a zone (yaml's own pattern). */
const TIMESTAMP = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(\.[0-9]+)?(?:[ \t]*(Z|([-+])([012]?[0-9])(?::([0-9]{2}))?))?)?$/;

/**
 * A full timestamp as yaml's timestamp type reads it, a Date, but only when every part is one the calendar and
 * the clock have: yaml's own type rolled `2026-02-30T10:00:00Z` over to March 2 and `T25:99:00Z` into the next
 * day, as it did plain days. Otherwise it stays text (its day alone when only the day is wrong), which the schema
 * refuses at the field's line ("must be a real calendar date", "must be an ISO date like 2026-03-14").
 */
const timestamp: ScalarTag = {
  identify: (value) => value instanceof Date,
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: TIMESTAMP,
  resolve: (text) => {
    const match = TIMESTAMP.exec(text)!;
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
    const [sign, zoneHours, zoneMinutes] = [match[9], Number(match[10] ?? 0), Number(match[11] ?? 0)];
    const dayText = `${match[1]}-${match[2]!.padStart(2, '0')}-${match[3]!.padStart(2, '0')}`;
    if (!isCalendarDay(dayText)) return dayText;
    if (hour > 23 || minute > 59 || second > 59 || zoneHours > 14 || zoneMinutes > 59) return text;
    const millisecond = match[7] ? Number(`${match[7]}00`.slice(1, 4)) : 0;
    const offset = sign ? (sign === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes) : 0;
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - offset * 60_000);
  },
  stringify: ({ value }) => (value instanceof Date ? value.toISOString().replace(/(T00:00:00)?\.000Z$/, '') : String(value)),
};

/**
 * YAML 1.2's core schema (strings, numbers, booleans, null, lists, maps), no
 * explicit tags beyond it, plus the timestamp type for full timestamps: js-yaml
 * read `date: 2024-05-01T23:30:00-05:00` as a date, and the schema turns a Date
 * into its ISO day exactly as before. Plain days come first, as text.
 * uniqueKeys is off: yaml compares each key with every other (a map of 10,000
 * keys took a second); duplicateKey below does it once.
 */
const YAML_OPTIONS: DocumentOptions & ParseOptions & SchemaOptions = { schema: 'core', customTags: [plainDay, timestamp], resolveKnownTags: false, uniqueKeys: false, prettyErrors: false };

/**
 * `yaml`, loaded by the first frontmatter the fast path (simpleYaml.ts) does not read: frontmatter as felt
 * writes it never needs it, and loading it was about 30 ms of every felt command's start. Its `node` export
 * is CommonJS, the module an import would load too.
 */
let yamlModule: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

/** Warnings that mean a tag felt does not read (`!custom`, `!!binary`): refused like errors. */
const REFUSED_WARNINGS = new Set(['TAG_RESOLVE_FAILED', 'BAD_COLLECTION_TYPE']);

export interface YamlSource {
  data: unknown;
  /** 1-based line of a field (its key, or its list item), of its nearest ancestor when absent; none at the top. */
  lineOf(path: FieldPath): number | undefined;
}

/** YAML text → its data and the lines of its fields; a FrontmatterError, at its line in the text, when felt does not read it. */
export function parseYaml(text: string): YamlSource {
  const bytes = Buffer.byteLength(text);
  if (bytes > LIMITS.frontmatterBytes) throw new FrontmatterError(tooLarge(bytes, LIMITS.frontmatterBytes), 1, `end it with a --- line; ${LIMIT_HINT}`, true);
  const deep = indicators(text) > LIMITS.nestingDepth ? tooDeepAt(text, LIMITS.nestingDepth) : undefined;
  if (deep !== undefined) throw new FrontmatterError(`nests lists and maps deeper than the limit of ${LIMITS.nestingDepth} levels`, lineCounter(text)(deep), LIMIT_HINT, true);
  const lines = new (yaml().LineCounter)();
  const document = yaml().parseDocument(text, { ...YAML_OPTIONS, lineCounter: lines });
  const refused: YAMLError | undefined = document.errors[0] ?? document.warnings.find((w) => REFUSED_WARNINGS.has(w.code));
  if (refused) throw new FrontmatterError(refused.message.split('\n')[0] ?? refused.code, lines.linePos(errorOffset(document, refused)).line);
  const duplicate = duplicateKey(document);
  if (duplicate !== undefined) throw new FrontmatterError('Map keys must be unique', lines.linePos(duplicate).line);
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: LIMITS.yamlAliases });
  } catch (error) {
    // Alias resolution is all that can fail here, and its error has no position: point at the first alias.
    const alias = firstAlias(document);
    const line = alias === undefined ? 1 : lines.linePos(alias).line;
    if (/excessive alias/i.test(String(error))) throw new FrontmatterError(`its aliases (*name) expand to too much data (more than the limit of ${LIMITS.yamlAliases} aliases)`, line, 'write the values out instead of repeating aliases');
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
    if (yaml().isMap(node)) {
      const pair = node.items.find((p) => String(yaml().isScalar(p.key) ? p.key.value : p.key) === String(segment));
      if (!pair) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (yaml().isSeq(node)) {
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
  yaml().visit(document, (_key, node) => {
    if (!yaml().isNode(node) || !node.range || node.range[0] > at || node.range[2] < at) return;
    const unclosable = (yaml().isCollection(node) && node.flow) || (yaml().isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'));
    // The innermost such node: visit goes from the outside in.
    if (unclosable) opened = node.range[0];
  });
  return opened ?? at;
}

/** Offset of the first alias (*name): where an excess of them is reported. */
function firstAlias(document: Document): number | undefined {
  let found: number | undefined;
  yaml().visit(document, {
    Alias(_key, node) {
      found = node.range?.[0];
      return yaml().visit.BREAK;
    },
  });
  return found;
}

/** Offset of the second of two equal keys in one map, the first such; none when every map's keys differ. */
function duplicateKey(document: Document): number | undefined {
  let found: number | undefined;
  yaml().visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        // Scalars compare by value, as yaml's uniqueKeys does, an alias (*k) as what it names; a collection as a key is a key of its own.
        const node = yaml().isAlias(pair.key) ? pair.key.resolve(document) : pair.key;
        const key = yaml().isScalar(node) ? node.value : node;
        if (seen.has(key)) {
          found = (pair.key as Node | null)?.range?.[0] ?? map.range?.[0];
          return yaml().visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return found;
}

/**
 * An upper bound of the nesting, counted in one pass over the characters:
 * every level of a collection needs its own indicator, a flow "[" or "{", or
 * a block "- ", "? " or ": " (an indicator followed by a space, a line end or
 * the end). Real frontmatter has a few dozen, so the lexer's scan below runs
 * only for text that could be too deep (it costs a third of the parse).
 */
function indicators(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) count++;
    else if ((c === 0x2d || c === 0x3f || c === 0x3a) && !(text.charCodeAt(i + 1) > 0x20)) count++;
  }
  return count;
}

/**
 * Offset of the first node nested deeper than `limit`, from the lexer's flat
 * token stream; none when within. Flow collections ([ and {) count one level
 * each. Block collections are told apart by their column: an entry (a key,
 * a "- " or "? " item) further right than the open one starts a collection
 * inside it, one at the same column is a sibling, one further left closes
 * collections. This can count a level too many (a plain value after a key
 * reads like a key), never one too few: it bounds what the parser will build.
 */
function tooDeepAt(text: string, limit: number): number | undefined {
  const columns: number[] = [];
  let flow = 0;
  let offset = 0;
  let lineStart = 0;
  for (const token of new (yaml().Lexer)().lex(text)) {
    const type = yaml().CST.tokenType(token);
    const at = offset;
    // The lexer's markers (a document, a scalar to follow, the end of a bad flow) are no text of the source.
    if (type === 'doc-mode' || type === 'scalar' || type === 'flow-error-end') continue;
    offset += token.length;
    const newline = token.lastIndexOf('\n');
    if (newline >= 0) lineStart = at + newline + 1;
    if (type === 'doc-start' || type === 'doc-end') {
      columns.length = 0;
      flow = 0;
    } else if (type === 'flow-map-start' || type === 'flow-seq-start') flow++;
    else if (type === 'flow-map-end' || type === 'flow-seq-end') flow = Math.max(0, flow - 1);
    else if (flow === 0 && (type === 'seq-item-ind' || type === 'explicit-key-ind' || type === null)) {
      // null: a scalar's text. A block entry; inside flow collections there are none.
      const column = at - lineStart;
      while (columns.length && columns.at(-1)! > column) columns.pop();
      if (columns.at(-1) !== column) columns.push(column);
    } else continue;
    if (columns.length + flow > limit) return at;
  }
  return undefined;
}
