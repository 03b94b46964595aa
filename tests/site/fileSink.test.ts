/**
 * Issue 13: a render thread's FileSink remembered every folder it made, 200,000
 * paths at 100,000 articles (each page is two files in two folders of their
 * own), held until the build's end. It now remembers a bounded number, and a
 * folder it has forgotten is made again when a file goes into it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSink } from '../../site/build/fileSink.ts';
import { tempDir } from './helpers.ts';

const remembered = (sink: FileSink) => (sink as unknown as { folders: Set<string> }).folders.size;

describe('FileSink', () => {
  it('remembers a bounded number of folders, and writes into one it has forgotten', async () => {
    const root = await tempDir();
    const sink = new FileSink({ dir: root });
    let most = 0;
    sink.write('articles/first/index.html', 'one');
    for (let i = 0; i < 10_000; i++) {
      sink.write(`articles/a-${i}/index.html`, String(i));
      most = Math.max(most, remembered(sink));
    }
    sink.write('articles/first/page-data.json', 'two');
    expect(most).toBeLessThanOrEqual(4096);
    await expect(readFile(path.join(root, 'articles', 'a-9999', 'index.html'), 'utf8')).resolves.toBe('9999');
    await expect(readFile(path.join(root, 'articles', 'first', 'page-data.json'), 'utf8')).resolves.toBe('two');
  });
});
