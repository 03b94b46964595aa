/**
 * gray-matter, safely: only YAML frontmatter is accepted (gray-matter would
 * otherwise evaluate a "---js" block as JavaScript), on text normalised first
 * (byte-order mark, CRLF line ends). How the YAML is read is the caller's
 * choice: the content loader reads it with positions (frontmatter.ts), the
 * renderer not at all, so render workers load neither yaml nor zod.
 */
import { createRequire } from 'node:module';

// Loaded when a file needs it: the files felt writes take the fast path below, and gray-matter brings js-yaml
// and esprima, about 50 ms of start-up for the main thread and each render worker.
const requireModule = createRequire(import.meta.url);
let matter: typeof import('gray-matter') | undefined;

/**
 * Frontmatter felt does not read; `line` is the line of the file. `limit`
 * when it is refused for its size or nesting (shared/limits.ts) rather than
 * for what it says.
 */
export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly hint = 'check quoting and indentation',
    readonly limit = false,
  ) {
    super(message);
  }
}

function refuse(language: string) {
  return () => {
    throw new FrontmatterError(`frontmatter in ${language} is not accepted`, 1, 'use YAML between --- lines');
  };
}

const REFUSED_ENGINES = {
  js: refuse('JavaScript'),
  javascript: refuse('JavaScript'),
  coffee: refuse('CoffeeScript'),
  coffeescript: refuse('CoffeeScript'),
  cson: refuse('CSON'),
};

export function normaliseSource(source: string): string {
  // Looked for before replacing: the files felt writes have neither, and a regex replace scans even when nothing
  // matches (each article is read twice, by the loader and by its page's renderer).
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * The frontmatter's data, as `yaml` reads the block between the fences, and
 * the body. gray-matter hands `yaml` the block from just after the opening
 * ---, so the block's lines are the file's. A FrontmatterError when the
 * frontmatter is not YAML.
 */
export function splitMatter(text: string, yaml: (block: string) => unknown): { data: unknown; body: string } {
  try {
    return splitCommon(text, yaml) ?? grayMatter(text, yaml);
  } catch (error) {
    if (error instanceof FrontmatterError) throw error;
    // gray-matter's own refusals, such as an unknown language after the opening ---.
    throw new FrontmatterError(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error), 1);
  }
}

/**
 * What gray-matter does for the files felt writes, without it: a file that
 * opens with a bare `---` line. gray-matter copies every file into a Buffer
 * and looks for a language after the fence, which cost more than the split
 * itself on a cold build. Undefined for anything else (no frontmatter, a
 * language after the fence, a `----` line), which gray-matter reads.
 */
function splitCommon(text: string, yaml: (block: string) => unknown): { data: unknown; body: string } | undefined {
  if (!text.startsWith('---\n')) return undefined;
  // As gray-matter: the block runs from the end of the opening line to the next line that starts with ---.
  const rest = text.slice(3);
  const close = rest.indexOf('\n---');
  const matter = close === -1 ? rest : rest.slice(0, close);
  // A block of nothing but comments and space is no frontmatter: the engine is not asked.
  // A block that reads as null is no data either (gray-matter's excerpt step makes it {}).
  const data = matter.replace(/^\s*#[^\n]+/gm, '').trim() === '' ? {} : (yaml(matter) ?? {});
  let body = close === -1 ? '' : rest.slice(close + 4);
  if (body.charCodeAt(0) === 13) body = body.slice(1);
  if (body.charCodeAt(0) === 10) body = body.slice(1);
  return { data, body };
}

function grayMatter(text: string, yaml: (block: string) => unknown): { data: unknown; body: string } {
  // Options are passed on every call: gray-matter caches parses by content
  // only when called without them, which would keep every file in memory.
  matter ??= requireModule('gray-matter') as typeof import('gray-matter');
  const parsed = matter(text, { language: 'yaml', engines: { ...REFUSED_ENGINES, yaml } } as never);
  return { data: parsed.data, body: parsed.content };
}

/**
 * The body alone, for the renderer: the frontmatter was read and validated
 * when the content was loaded, so it is not parsed again for every page.
 */
export function frontmatterBody(source: string): string {
  return splitMatter(normaliseSource(source), () => ({})).body;
}
