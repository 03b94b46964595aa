/**
 * The markdown the repository holds, as test material for the markdown
 * parser felt bundles (tests/site/markdownItFields.test.ts,
 * tests/site/markdownScans.test.ts): every `.md` file under the folders
 * named, relative to the repository's root, or a file named itself.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { REPO } from './cli.ts';

export async function markdownDocuments(...names: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const name of names) {
    const full = path.join(REPO, name);
    if ((await stat(full)).isFile()) {
      files.push(full);
      continue;
    }
    const entries = await readdir(full, { withFileTypes: true, recursive: true });
    files.push(...entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => path.join(e.parentPath, e.name)));
  }
  return Promise.all(files.map((file) => readFile(file, 'utf8')));
}
