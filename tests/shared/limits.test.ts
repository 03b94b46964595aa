/**
 * Issue 15, piece by piece: what felt reads is bounded before the work
 * starts (shared/limits.ts). A file is looked at before it is read (its
 * kind, where a link leads, its size) and read no further than its limit;
 * JSON and YAML nesting is measured on flat tokens before anything recurses;
 * an https origin is what site.url must parse as; a file of a million
 * problems lists a hundred. tests/security/hostile.test.ts runs the same
 * inputs through the CLI.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatProblem } from '../../shared/errors.ts';
import { inspectInput, readInput, readInspected } from '../../shared/inputFile.ts';
import { parseJson } from '../../shared/jsonSource.ts';
import { formatBytes, LIMITS, tooLarge } from '../../shared/limits.ts';
import { siteSettingsSchema } from '../../shared/settings.ts';
import { issueProblems } from '../../shared/validation.ts';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { loadRetractions } from '../../site/content/retractions.ts';
import { siteSettings } from '../support/fixtureSite.ts';
import { tempDir } from '../site/helpers.ts';
import { VALID_FRONTMATTER } from '../site/helpers.ts';

const KB = 1024;

describe('an input file', () => {
  it('is read when it is a file within its limit, inside the content folder or linked within it', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'a.md'), 'text');
    await symlink(path.join(root, 'a.md'), path.join(root, 'b.md'));
    for (const name of ['a.md', 'b.md']) {
      const read = await readInput(path.join(root, name), { root, maxBytes: 4 });
      expect(read.kind === 'read' && read.bytes.toString()).toBe('text');
    }
    expect(await readInput(path.join(root, 'none.md'), { root, maxBytes: 4 })).toEqual({ kind: 'missing' });
  });

  it('is refused unread when it is a folder, a FIFO, a link out of the content folder or to nothing, or over its limit', async () => {
    const root = await tempDir();
    const file = (name: string) => path.join(root, name);
    await mkdir(file('folder.md'));
    expect(spawnSync('mkfifo', [file('fifo.md')]).status).toBe(0);
    await symlink('/etc/hostname', file('out.md'));
    await symlink('nothing.md', file('dangling.md'));
    await writeFile(file('big.md'), Buffer.alloc(5 * KB));
    const refusal = (name: string) => inspectInput(file(name), { root, maxBytes: 4 * KB });
    expect(refusal('folder.md')).toMatchObject({ kind: 'refused', message: 'is a folder, not a file' });
    // Reading a FIFO would wait for a writer forever: this returns at once.
    expect(refusal('fifo.md')).toMatchObject({ kind: 'refused', message: 'is a named pipe (FIFO), not a file' });
    expect(refusal('out.md')).toMatchObject({ kind: 'refused', message: 'is a symbolic link to /etc/hostname, outside the content folder' });
    expect(refusal('dangling.md')).toMatchObject({ kind: 'refused', message: 'is a symbolic link to nothing that exists' });
    expect(refusal('big.md')).toMatchObject({ kind: 'refused', message: 'file is 5 KB, larger than the limit of 4 KB', hint: 'see README, "Limits"' });
  });

  it('is read no further than its limit when it grew after it was looked at', async () => {
    const root = await tempDir();
    const file = path.join(root, 'growing.md');
    await writeFile(file, 'small');
    const looked = inspectInput(file, { root, maxBytes: 1024 });
    expect(looked).toMatchObject({ kind: 'file', size: 5 });
    await appendFile(file, Buffer.alloc(10 * KB));
    expect(await readInspected(file, 5, 1024)).toMatchObject({ kind: 'refused', message: 'file is 10 KB, larger than the limit of 1 KB' });
  });
});

describe('sizes in messages', () => {
  it('name both sizes, in bytes when they would round alike', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(64 * KB)).toBe('64 KB');
    expect(formatBytes(50 * KB * KB + 300 * KB)).toBe('50.3 MB');
    expect(tooLarge(KB * KB + 1, KB * KB)).toBe('is 1,048,577 bytes, larger than the limit of 1,048,576 bytes');
  });
});

describe('JSON', () => {
  it('is measured before anything recurses: 100,000 levels are one error at its line, not a stack overflow', () => {
    const deep = `{\n"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseJson(deep)).toEqual({ ok: false, error: { line: 2, message: 'lists and objects are nested deeper than the limit of 64 levels', limit: true } });
    // Unbalanced, and behind a comment that hides a quote: measured as jsonc-parser reads it.
    expect(parseJson(`/*"*/ ${'['.repeat(100_000)}`)).toMatchObject({ ok: false, error: { limit: true } });
    const within = `${'['.repeat(LIMITS.nestingDepth)}${']'.repeat(LIMITS.nestingDepth)}`;
    expect(parseJson(within)).toMatchObject({ ok: true });
  });

  it('holds at most 50,000 values, keys included: a million empty objects are refused before they are parsed', () => {
    expect(parseJson(`[\n${Array(1_000_000).fill('{}').join(',')}]`)).toEqual({
      ok: false,
      error: { line: 2, message: 'holds more values and keys than the limit of 50,000', limit: true },
    });
    expect(parseJson(`{${Array.from({ length: 24_999 }, (_, i) => `"${i}": ${i}`).join(',')}}`)).toMatchObject({ ok: true });
  });
});

const FIELDS = VALID_FRONTMATTER;
// The errors only: the extra fields these add are each a warning of their own (a field felt does not read).
const parse = (extra: string) =>
  parseArticle(`---\n${FIELDS.join('\n')}\n${extra}\n---\nText.\n`, 'articles/en_US/a-title.md', 'en_US')
    .problems.filter((problem) => problem.severity === 'error')
    .map(formatProblem);

describe('YAML frontmatter', () => {
  it('is refused when its block is over its limit, before it is parsed', () => {
    expect(parse(`extra: "${'x'.repeat(70 * KB)}"`)).toEqual([
      'articles/en_US/a-title.md:1: frontmatter is 70.2 KB, larger than the limit of 64 KB (end it with a --- line; see README, "Limits")',
    ]);
  });

  it('is refused when it nests deeper than the limit, in flow or block collections, at the line where it does', () => {
    const limit = 'frontmatter nests lists and maps deeper than the limit of 64 levels (see README, "Limits")';
    expect(parse(`extra: ${'['.repeat(20_000)}`)).toEqual([`articles/en_US/a-title.md:10: ${limit}`]);
    expect(parse(`extra:\n  ${'- '.repeat(20_000)}1`)).toEqual([`articles/en_US/a-title.md:11: ${limit}`]);
    expect(parse(Array.from({ length: 100 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'))).toEqual([expect.stringContaining(limit)]);
    // Real nesting (entities, subcategories, lists of lists) stays far below it, however many keys and items hold it.
    expect(parse(Array.from({ length: 100 }, (_, i) => `k${i}:\n  - [a, {b: c}]`).join('\n'))).toEqual([]);
    expect(parse(`extra:\n${Array.from({ length: 20 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n')} [[1, {a: [2]}]]`)).toEqual([]);
  });

  it('refuses a repeated key, an alias (*k) of a key included, at the repeat, in time linear in the keys', () => {
    expect(parse('&k extra: 1\n*k : 2')).toEqual([
      'articles/en_US/a-title.md:11: frontmatter is not valid YAML: Map keys must be unique (check quoting and indentation)',
    ]);
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}: ${i}`).join('\n');
    const started = performance.now();
    expect(parse(`${keys}\nk0: again`)).toEqual([
      'articles/en_US/a-title.md:5010: frontmatter is not valid YAML: Map keys must be unique (check quoting and indentation)',
    ]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('site.url and localeUrls', () => {
  const settings = siteSettings();
  const urlProblems = (url: string) => {
    const result = siteSettingsSchema.safeParse({ ...settings, url, localeUrls: { ru_RU: url } });
    return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
  };

  it('are https origins that parse: a host, a port if any, nothing else', () => {
    for (const bad of [
      'https://[fixture.example',
      'https://fixture.example:99999',
      'https://fixture.example:0',
      'http://fixture.example',
      'https://fixture.example/magazine',
      'https://user:pw@fixture.example',
      'https://fixture.example?x=1',
      'https://fixture.example#top',
      'https://',
      'https://fixture.example\u0000',
    ]) {
      expect(urlProblems(bad), bad).toEqual(['url', 'localeUrls.ru_RU']);
    }
    for (const good of ['https://fixture.example', 'https://fixture.example:8443', 'https://fixture.example/', 'https://xn--bcher-kva.example'])
      expect(urlProblems(good), good).toEqual([]);
    expect(siteSettingsSchema.parse({ ...settings, url: 'https://fixture.example/' }).url).toBe('https://fixture.example');
  });
});

describe('a file with a great many problems', () => {
  it('lists the first hundred at their lines and counts the rest in one line, looking up no other line', () => {
    const result = z.record(z.string(), z.object({})).safeParse(Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`k${i}`, 0])));
    let lookups = 0;
    const problems = issueProblems(result.error!, 'categories.json', () => ++lookups);
    expect(problems).toHaveLength(LIMITS.problemsPerFile + 1);
    expect(lookups).toBe(LIMITS.problemsPerFile + 1);
    expect(formatProblem(problems.at(-1)!)).toBe('categories.json:101: and 79,900 more problems in this file (only the first 100 are listed)');
  });
});

describe('the limits of what felt reads from a bucket', () => {
  it('are in the README\'s "Limits" table, each with its figure', () => {
    const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('### Limits'), readme.indexOf('## Audits'));
    const row = (what: string) => table.split('\n').find((line) => line.startsWith(`| ${what}`));
    expect(row('a retraction record')).toMatch(new RegExp(`\\| ${formatBytes(LIMITS.retractionBytes)} \\|$`));
    expect(row("felt's own records in a bucket")).toMatch(new RegExp(`\\| ${formatBytes(LIMITS.stateRecordBytes)} \\|$`));
    expect(row("a state snapshot's pack")).toMatch(new RegExp(`\\| ${formatBytes(LIMITS.articleBytes)} and 512 bytes per article`));
  });

  it('bound a retraction record in content/retracted/ as in the bucket (LIMITS.retractionBytes)', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'retracted', 'en_US'), { recursive: true });
    const record = JSON.stringify({ slug: 'gone', padding: 'x'.repeat(LIMITS.retractionBytes) });
    await writeFile(path.join(root, 'retracted', 'en_US', 'gone.json'), record);
    const problems: Parameters<typeof loadRetractions>[2] = [];
    expect(await loadRetractions(root, 'en_US', problems)).toEqual([]);
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(/\/retracted\/en_US\/gone\.json: file is [\d,]+ bytes, larger than the limit of 65,536 bytes \(see README, "Limits"\)$/),
    ]);
    expect(problems[0]!.message).toBe(`file ${tooLarge(Buffer.byteLength(record), LIMITS.retractionBytes)}`);
  });
});
