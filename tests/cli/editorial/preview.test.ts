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

  it('names each dev article it leaves out (invalid, or not an article name), as felt pull does', async () => {
    const contentDir = await fixtureCopy();
    const dev = await openBucket(contentDir, { storage: 'local' }, 'dev');
    await putArticle(dev, 'fresh-draft', 'Fresh Draft', { date: '2026-06-01' });
    await dev.write('articles/en_US/broken-draft.md', Buffer.from('---\ntitle: [broken\n---\nText.\n'), { contentType: 'text/markdown; charset=utf-8' });
    await dev.write('articles/en_US/Bad_Name.md', Buffer.from('text'), { contentType: 'text/markdown; charset=utf-8' });
    const run = async (...flags: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => (out.push(String(chunk)), true)) as never);
      vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => (err.push(String(chunk)), true)) as never);
      const code = await main(['node', 'felt', 'preview', '--no-serve', ...flags, '--content', contentDir, '--storage', 'local']);
      vi.restoreAllMocks();
      return { code, out: out.join(''), err: err.join('').split('\n') };
    };
    const plain = await run();
    expect(plain.code).toBe(0);
    expect(plain.err).toContainEqual(expect.stringMatching(/^skipped: articles\/en_US\/broken-draft\.md: invalid article: .*YAML.* \(not in the preview\)$/));
    expect(plain.err).toContainEqual(expect.stringMatching(/^skipped: articles\/en_US\/Bad_Name\.md: not an article name .*\(not in the preview\)$/));
    const json = await run('--json');
    expect(json.code).toBe(0);
    const result = JSON.parse(json.out);
    expect(result.build.drafts).toEqual([{ slug: 'fresh-draft', title: 'Fresh Draft', draft: 'new' }]);
    expect(result.pulled.skipped.map((s: { name: string }) => s.name).sort()).toEqual(['articles/en_US/Bad_Name.md', 'articles/en_US/broken-draft.md']);
  });
});
