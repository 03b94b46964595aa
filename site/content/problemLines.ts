/**
 * Lines for problems made where the file's text is not at hand: checks across
 * files (an unknown author) and route collisions name a file and a field; the
 * field's line is read here from the file, with the same parsers the content
 * was read with. felt check and felt build print the same lines.
 */
import path from 'node:path';
import type { Problem } from '../../shared/errors.ts';
import { readInput } from '../../shared/inputFile.ts';
import { parseJson } from '../../shared/jsonSource.ts';
import { MAX_INPUT_BYTES } from '../../shared/limits.ts';
import { fieldPath, type FieldPath } from '../../shared/validation.ts';
import { splitFrontmatter } from './frontmatter.ts';

export async function locateProblems(problems: Problem[], contentDir: string): Promise<Problem[]> {
  const cache = new Map<string, ((path: FieldPath) => number) | undefined>();
  const linesOf = async (file: string) => {
    if (!cache.has(file)) {
      // Read as the loader read it, within the same bounds: these files were accepted a moment ago.
      const read = await readInput(path.resolve(file), { root: contentDir, maxBytes: MAX_INPUT_BYTES });
      cache.set(file, read.kind === 'read' ? fieldLines(file, read.bytes.toString('utf8')) : undefined);
    }
    return cache.get(file);
  };
  const result: Problem[] = [];
  for (const problem of problems) {
    if (problem.line !== undefined || !problem.field || !/\.(json|md)$/.test(problem.file)) {
      result.push(problem);
      continue;
    }
    const lineOf = await linesOf(problem.file);
    result.push({ ...problem, line: lineOf?.(fieldPath(problem.field)) });
  }
  return result;
}

/** Lines of the fields of a JSON file or of a markdown file's frontmatter, read as the build reads them. */
function fieldLines(file: string, text: string): ((path: FieldPath) => number) | undefined {
  if (file.endsWith('.json')) {
    const parsed = parseJson(text);
    return parsed.ok ? parsed.json.lineOf : undefined;
  }
  try {
    return splitFrontmatter(text).lineOf;
  } catch {
    return undefined;
  }
}
