/**
 * `felt preview --no-serve` on the command line, on the local folder
 * storage (the default a new user has): the drafts as JSON, the preview
 * built beside content/ in .felt-preview/, dist/ and content/ untouched.
 * (The reader's side, badges and the /preview/ list, is tests/browser/preview.test.ts.)
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../cli/main.ts';
import { fixtureCopy } from '../../site/helpers.ts';
import { openBucket, putArticle } from './helpers.ts';

afterEach(() => vi.restoreAllMocks());

describe('felt preview --no-serve', () => {
  it('prints the drafts as JSON and builds into .felt-preview/, not dist/ or content/', async () => {
    const contentDir = await fixtureCopy();
    const root = path.dirname(contentDir);
    const dev = await openBucket(contentDir, { storage: 'local' }, 'dev');
    await putArticle(dev, 'fresh-draft', 'Fresh Draft', { date: '2026-06-01' });
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => (out.push(String(chunk)), true)) as never);
    vi.spyOn(process.stderr, 'write').mockImplementation((() => true) as never);
    expect(await main(['node', 'felt', 'preview', '--no-serve', '--json', '--content', contentDir, '--storage', 'local'])).toBe(0);
    vi.restoreAllMocks();
    const result = JSON.parse(out.join(''));
    expect(result.build.drafts).toEqual([{ slug: 'fresh-draft', title: 'Fresh Draft', draft: 'new' }]);
    expect(result.build.outDir).toBe(path.join(root, '.felt-preview'));
    expect(existsSync(path.join(root, '.felt-preview', 'preview', 'index.html'))).toBe(true);
    expect(await readFile(path.join(root, '.felt-preview', 'articles', 'fresh-draft', 'index.html'), 'utf8')).toContain('data-draft="new"');
    expect(existsSync(path.join(contentDir, 'articles', 'en_US', 'fresh-draft.md'))).toBe(false);
    expect(existsSync(path.join(root, 'content.dev', 'articles', 'en_US', 'fresh-draft.md'))).toBe(true);
    expect(existsSync(path.join(root, 'dist'))).toBe(false);
  });
});
