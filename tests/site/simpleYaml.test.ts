/**
 * The frontmatter fast path (site/content/simpleYaml.ts, and the split in
 * grayMatter.ts) gives exactly what gray-matter and the full YAML parser
 * give: on every fixture and bundled article, and on generated frontmatter
 * that mixes felt's own form with what the fast path must leave alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../site/content/frontmatter.ts';
import { FrontmatterError, normaliseSource } from '../../site/content/grayMatter.ts';
import { readSimpleYaml } from '../../site/content/simpleYaml.ts';
import { parseYaml } from '../../site/content/yamlSource.ts';
import { random } from '../../bench/corpus.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.join(e.parentPath, e.name));
}

const refuse = (language: string) => () => {
  throw new FrontmatterError(`frontmatter in ${language} is not accepted`, 1);
};

/** What felt read before the fast path: gray-matter splitting (with felt's refusals of code), the full parser reading. */
function reference(source: string): { data: unknown; body: string } | { error: string; line: number } {
  try {
    const engines = {
      js: refuse('JavaScript'),
      javascript: refuse('JavaScript'),
      coffee: refuse('CoffeeScript'),
      coffeescript: refuse('CoffeeScript'),
      cson: refuse('CSON'),
    };
    const parsed = matter(normaliseSource(source), { language: 'yaml', engines: { ...engines, yaml: (block: string) => parseYaml(block).data } } as never);
    return { data: parsed.data, body: parsed.content };
  } catch (error) {
    if (error instanceof FrontmatterError) return { error: error.message, line: error.line };
    return { error: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error), line: 1 };
  }
}

function current(source: string): { data: unknown; body: string } | { error: string; line: number } {
  try {
    const split = splitFrontmatter(source);
    return { data: split.data, body: split.body };
  } catch (error) {
    if (error instanceof FrontmatterError) return { error: error.message, line: error.line };
    throw error;
  }
}

/** The block as the YAML engine is handed it: from the end of the opening --- line to the closing fence. */
function blockOf(source: string): string | undefined {
  let block: string | undefined;
  matter(normaliseSource(source), {
    language: 'yaml',
    engines: {
      yaml: (b: string) => {
        block = b;
        return {};
      },
    },
  } as never);
  return block;
}

// Values felt writes, and values the fast path must refuse (the full parser reads them as numbers, booleans, null, dates, maps, comments...).
const SCALARS = [
  'Diego Ferreira',
  'article-000123',
  'asian-handicap-betting-explained',
  '2025-09-08',
  '"Asian Handicap Betting Explained, Quarter Lines Included"',
  '"A \'quoted\' word: and a colon"',
  '"Ставки на спорт"',
  'Łukasz Nowak',
  "O'Brien",
  'en_US',
  '"# not a comment"',
  '""',
  'true',
  'True',
  'null',
  'NULL',
  '~',
  '12',
  '1.5',
  '0x1F',
  '.inf',
  '2025-09-08T10:00:00Z',
  '2025-9-8',
  'yes',
  'no',
  'Off',
  'a: b',
  'a #comment',
  'trailing ',
  'double  space',
  "'single quoted'",
  '"escaped \\" quote"',
  '"tab\tinside"',
  '"unclosed',
  '&anchor value',
  '*alias',
  '!!str tagged',
  '[]',
  '["a", "b"]',
  '["a, b", "c"]',
  '["a","b"]',
  '[a, b]',
  '{ a: 1 }',
  '|',
  '>',
  '- item',
  '@at',
  '`tick`',
  '%percent',
  'x\u00a0nbsp',
  'Ⅻ roman',
  'end.',
  'end-',
  "end'",
];
const KEYS = [
  'title',
  'slug',
  'description',
  'author',
  'date',
  'updated',
  'locale',
  'translationKey',
  'true',
  'null',
  'key_2',
  '_private',
  'my-key',
  'Title',
  'on',
  'y',
];

const SAFE = ['Diego Ferreira', 'article-000123', '2025-09-08', '"A title, with a comma"', 'en_US', 'bettingStrategies'];

function entityLines(rand: () => number, indent = ''): string[] {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const scalar = () => (rand() < 0.95 ? pick(SAFE) : pick(SCALARS));
  const lines = ['entities:'];
  const count = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < count; i++) {
    lines.push(`${indent}  - category: ${scalar()}`);
    if (rand() < 0.7) {
      lines.push(`${indent}    subcategories:`);
      for (let j = 0; j < 1 + Math.floor(rand() * 2); j++) {
        lines.push(`${indent}      - subcategory: ${scalar()}`);
        if (rand() < 0.8) lines.push(`${indent}        subsubcategories: ${pick(['[]', '["Asian Handicap", "Football Betting"]', '["One"]', scalar()])}`);
      }
    }
  }
  return lines;
}

function generatedBlock(rand: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const lines: string[] = [];
  // Mostly felt's own form, so the fast path is exercised; now and then something it must refuse.
  for (const key of ['title', 'slug', 'description', 'author', 'date', 'locale']) lines.push(`${key}: ${rand() < 0.95 ? pick(SAFE) : pick(SCALARS)}`);
  if (rand() < 0.3) lines.push(`${pick(KEYS)}: ${pick(SCALARS)}`);
  lines.push(...entityLines(rand, rand() < 0.1 ? ' ' : ''));
  const mutations = [
    () => lines.splice(Math.floor(rand() * lines.length), 0, ''),
    () => lines.splice(Math.floor(rand() * lines.length), 0, '# a comment'),
    () => lines.push(lines[0]!),
    () => (lines[lines.length - 1] = `${lines[lines.length - 1]} `),
    () => (lines[lines.length - 1] = lines[lines.length - 1]!.replace(/^ {2}/, '\t')),
    () => lines.splice(1, 0, 'entities:'),
    () => lines.push('nested:', '  inner: value'),
    () => lines.push('list:', '  - "scalar item"'),
    () => lines.push('empty:'),
  ];
  if (rand() < 0.25) pick(mutations)();
  // As gray-matter hands it over: from the opening fence's line break to just before the closing one's.
  return `\n${lines.join('\n')}${rand() < 0.05 ? '\n' : ''}`;
}

describe('the frontmatter fast path', () => {
  it('reads every bundled article and fixture exactly as gray-matter and the full parser do', () => {
    const files = [...markdownFiles(path.join(ROOT, 'content')), ...markdownFiles(path.join(ROOT, 'tests', 'fixtures'))];
    expect(files.length).toBeGreaterThan(90);
    let fast = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect(current(source), file).toStrictEqual(reference(source));
      const block = blockOf(source);
      if (block !== undefined && readSimpleYaml(block)) fast++;
    }
    // Every bundled article is in felt's own form: none may fall back to the slow parser.
    const bundled = markdownFiles(path.join(ROOT, 'content', 'articles'));
    for (const file of bundled) expect(readSimpleYaml(blockOf(readFileSync(file, 'utf8'))!), file).toBeDefined();
    expect(fast).toBeGreaterThanOrEqual(bundled.length);
  });

  it('gives what the full parser gives, or leaves the block to it, on 10,000 generated blocks', () => {
    const rand = random(13);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 10_000; i++) {
      const block = generatedBlock(rand);
      const simple = readSimpleYaml(block);
      let full: unknown;
      try {
        full = parseYaml(block).data;
      } catch {
        // The full parser refuses it: the fast path must not have read it.
        expect(simple, block).toBeUndefined();
        refused++;
        continue;
      }
      if (simple === undefined) continue;
      accepted++;
      expect(simple, block).toStrictEqual(full);
    }
    // Both sides are exercised: most blocks take the fast path, and some are errors it leaves alone.
    expect(accepted).toBeGreaterThan(3_000);
    expect(refused).toBeGreaterThan(100);
  });

  it('splits whole files as gray-matter does, fences and bodies included', () => {
    const rand = random(7);
    const openings = ['---\n', '--- \n', '---yaml\n', '----\n', '---js\n', '', '# no frontmatter\n'];
    const closings = ['---\n', '---', '---x\n', '--- \n', '----\n', ''];
    const bodies = ['Body text.\n', '\nAfter a blank line.\n', '\r\nCR then LF', '', '---\nA second fence.\n'];
    for (let i = 0; i < 3_000; i++) {
      const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
      const block = rand() < 0.1 ? pick(['', '# only a comment\n', '~\n', 'just text\n']) : `${generatedBlock(rand).slice(1)}\n`;
      const source = `${pick(openings)}${block}${pick(closings)}${pick(bodies)}`;
      expect(current(source), JSON.stringify(source)).toStrictEqual(reference(source));
    }
  });
});
