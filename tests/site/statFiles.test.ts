/** lstat on a worker: plain files answered with their size and time, anything else left to the main thread. */
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statInBackground } from '../../site/content/statFiles.ts';
import { tempDir } from './helpers.ts';

describe('statInBackground', () => {
  it('answers plain files with their size and time, in order, and marks links, folders and missing paths', async () => {
    const dir = await tempDir();
    const plain = path.join(dir, 'a.md');
    writeFileSync(plain, 'twelve bytes');
    const folder = path.join(dir, 'folder.md');
    mkdirSync(folder);
    const link = path.join(dir, 'link.md');
    symlinkSync(plain, link);
    const files = [plain, folder, link, path.join(dir, 'gone.md'), plain];
    const stats = await statInBackground(files);
    expect([...stats.regular]).toEqual([1, 0, 0, 0, 1]);
    expect(stats.size[0]).toBe(12);
    expect(stats.mtimeMs[4]).toBe(statSync(plain).mtimeMs);
  });
});
