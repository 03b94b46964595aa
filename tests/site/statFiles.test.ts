/** Listing and lstat on a worker: the article files in name order, plain ones answered with their size and time. */
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listInBackground } from '../../site/content/statFiles.ts';
import { tempDir } from './helpers.ts';

describe('listInBackground', () => {
  it('lists article files as the build does, answers plain ones with their size and time, and marks links and folders', async () => {
    const dir = await tempDir();
    writeFileSync(path.join(dir, 'b.md'), 'twelve bytes');
    writeFileSync(path.join(dir, 'a.md'), 'four');
    writeFileSync(path.join(dir, '._a.md'), 'macOS');
    writeFileSync(path.join(dir, 'notes.txt'), 'not an article');
    mkdirSync(path.join(dir, 'folder.md'));
    symlinkSync(path.join(dir, 'b.md'), path.join(dir, 'link.md'));
    const [listing, missing] = await listInBackground([dir, path.join(dir, 'gone')]);
    expect(listing!.names).toEqual(['a.md', 'b.md', 'folder.md', 'link.md']);
    expect([...listing!.regular]).toEqual([1, 1, 0, 0]);
    expect(listing!.size[1]).toBe(12);
    expect(listing!.mtimeMs[0]).toBe(statSync(path.join(dir, 'a.md')).mtimeMs);
    expect(missing!.names).toEqual([]);
  });
});
