/**
 * Issue 13: a render thread's FileSink remembered every folder it made, 200,000
 * paths at 100,000 articles (each page is two files in two folders of their
 * own), held until the build's end. It now remembers a bounded number, and a
 * folder it has forgotten is made again when a file goes into it. Over an
 * older release (a build made from the spare), it writes over what only that
 * release holds and replaces what it shares with another.
 */
import { link, lstat, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
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

describe('FileSink over an older release (replace)', () => {
  it('writes over a file only it holds, replaces one linked elsewhere, and clears links and folders in the way', async () => {
    const root = await tempDir();
    const release = path.join(root, 'release');
    const served = path.join(root, 'served');
    await mkdir(path.join(release, 'a'), { recursive: true });
    await mkdir(path.join(served, 'a'), { recursive: true });
    await writeFile(path.join(release, 'a', 'own.html'), 'old own');
    await writeFile(path.join(served, 'a', 'shared.html'), 'served bytes');
    await link(path.join(served, 'a', 'shared.html'), path.join(release, 'a', 'shared.html'));
    await writeFile(path.join(root, 'outside.txt'), 'not felt’s');
    await symlink(path.join(root, 'outside.txt'), path.join(release, 'a', 'linked.txt'));
    // A folder where a file now goes, and a file where a folder now goes (an older felt laid its files out so).
    await mkdir(path.join(release, 'feed.xml', 'deep'), { recursive: true });
    await writeFile(path.join(release, 'feed.xml', 'deep', 'x'), 'x');
    await writeFile(path.join(release, 'search'), 'a file');
    const ownInode = (await stat(path.join(release, 'a', 'own.html'))).ino;

    const sink = new FileSink({ dir: release, replace: true });
    sink.write('a/own.html', 'new own');
    sink.write('a/shared.html', 'new shared');
    sink.write('a/linked.txt', 'new linked');
    sink.write('feed.xml', '<feed/>');
    sink.write('search/manifest.json', '{}');
    sink.write('fresh/index.html', 'fresh');

    await expect(readFile(path.join(release, 'a', 'own.html'), 'utf8')).resolves.toBe('new own');
    expect((await stat(path.join(release, 'a', 'own.html'))).ino, 'written where it was').toBe(ownInode);
    await expect(readFile(path.join(release, 'a', 'shared.html'), 'utf8')).resolves.toBe('new shared');
    await expect(readFile(path.join(served, 'a', 'shared.html'), 'utf8'), 'the served file keeps its bytes').resolves.toBe('served bytes');
    expect((await lstat(path.join(release, 'a', 'linked.txt'))).isSymbolicLink()).toBe(false);
    await expect(readFile(path.join(root, 'outside.txt'), 'utf8'), 'a link is not followed').resolves.toBe('not felt’s');
    await expect(readFile(path.join(release, 'feed.xml'), 'utf8')).resolves.toBe('<feed/>');
    await expect(readFile(path.join(release, 'search', 'manifest.json'), 'utf8')).resolves.toBe('{}');
    await expect(readFile(path.join(release, 'fresh', 'index.html'), 'utf8')).resolves.toBe('fresh');
  });
});
