/**
 * Frontmatter of articles and info pages: the file split into data and body
 * (grayMatter.ts), the YAML read with the line of every field (yamlSource.ts),
 * and the data validated against a schema, every problem at its line.
 */
import type { z } from 'zod';
import type { Problem } from '../../shared/errors.ts';
import { CONTENT_PARSE, issueProblems, type FieldPath } from '../../shared/validation.ts';
import { FrontmatterError, normaliseSource, splitMatter } from './grayMatter.ts';
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

export type FrontmatterRead<T> = { ok: true; split: SplitFile; data: T } | { ok: false; problems: Problem[] };

/**
 * Frontmatter validated with `schema`: the data, or every problem, each with
 * its line. Articles and info pages are both read through here.
 */
export function readFrontmatter<S extends z.ZodType>(source: string, file: string, schema: S, emptyHint: string): FrontmatterRead<z.output<S>> {
  let split: SplitFile;
  try {
    split = splitFrontmatter(source);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    return { ok: false, problems: [{ file, line: error.line, severity: 'error', message: `frontmatter is not valid YAML: ${error.message}`, hint: error.hint }] };
  }
  if (Object.keys(split.data).length === 0) {
    return { ok: false, problems: [{ file, line: 1, severity: 'error', message: 'no frontmatter found', hint: emptyHint }] };
  }
  const result = schema.safeParse(split.data, CONTENT_PARSE);
  if (!result.success) return { ok: false, problems: issueProblems(result.error, file, split.lineOf) };
  return { ok: true, split, data: result.data };
}
