import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_SITE = fileURLToPath(new URL('../fixtures/site', import.meta.url));
export const BUNDLED_CONTENT = fileURLToPath(new URL('../../content', import.meta.url));

export async function tempDir(prefix = 'felt-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A copy of the fixture site in a temp folder, with extra or replaced files. */
export async function fixtureCopy(files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(await tempDir(), 'content');
  await cp(FIXTURE_SITE, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** Every problem loadContent reports for a content folder, formatted as the CLI prints them. */
export async function contentProblems(dir: string): Promise<string[]> {
  const { loadContent } = await import('../../site/content/loadContent.ts');
  const { ContentError, formatProblem } = await import('../../shared/errors.ts');
  try {
    await loadContent(dir);
  } catch (error) {
    if (error instanceof ContentError) return error.problems.map(formatProblem);
    throw error;
  }
  return [];
}

/** The frontmatter lines of a valid English article of the fixture site (slug "a-title"), for tests that vary one. */
export const VALID_FRONTMATTER = [
  'title: A title',
  'slug: a-title',
  'description: A description.',
  'author: Mara Lindqvist',
  'date: 2026-01-01',
  'locale: en_US',
  'entities:',
  '  - category: bettingStrategies',
];
