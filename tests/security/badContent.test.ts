/**
 * Issue 6, item 5: a corpus of malformed content is reported file by file,
 * with the field, in one run, and nothing crashes: through loadContent and
 * through `felt build`, which exits 1 with one line per problem and no stack
 * trace. The committed corpus is tests/fixtures/security/bad-content/; the
 * 50 MB file and the binary junk are made at test time in a temp folder.
 */
import { cp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentError, formatProblem, type Problem } from '../../shared/errors.ts';
import { loadContent } from '../../site/content/loadContent.ts';
import { fixtureCopy } from '../site/helpers.ts';
import { runFelt, STACK_TRACE } from '../support/cli.ts';

const CORPUS = fileURLToPath(new URL('../fixtures/security/bad-content', import.meta.url));

/** File → what its problem must say (and the field, where there is one). */
const EXPECTED: Record<string, RegExp[]> = {
  'invalid-yaml.md': [/invalid-yaml\.md:2: frontmatter is not valid YAML: Missing closing "quote/],
  'wrong-types.md': [
    /field "title": title /,
    /field "description": description /,
    /field "author": author /,
    /field "date": date must be an ISO date/,
    /field "entities": entities /,
  ],
  'missing-fields.md': [
    /field "slug": slug is required/,
    /field "description": description is required/,
    /field "author": author is required/,
    /field "date": date is required/,
    /field "locale": locale is required/,
    /field "entities": entities is required/,
  ],
  'unknown-author.md': [/field "author": author "Nobody Known" is not in authors\.json/],
  'unknown-category.md': [/field "entities": no known category among "astrology"/],
  'duplicate-slug.md': [/field "slug": slug "duplicate-slug" is used by 2 articles: \S*duplicate-slug(-copy)?\.md, \S*duplicate-slug(-copy)?\.md/],
  'duplicate-slug-copy.md': [
    /field "slug": slug "duplicate-slug" is used by 2 articles/,
    /field "slug": slug "duplicate-slug" differs from the file name "duplicate-slug-copy\.md"/,
  ],
  'bom-and-crlf-broken.md': [/bom-and-crlf-broken\.md:2 field "title": title /],
  'empty.md': [/empty\.md: file is empty/],
  'whitespace-only.md': [/whitespace-only\.md: file is empty/],
  'javascript-frontmatter.md': [/frontmatter in JavaScript is not accepted/],
  // Nested aliases are refused before they expand (issue 11), not expanded and then found to be the wrong type.
  'yaml-aliases.md': [/yaml-aliases\.md:3: frontmatter is not valid YAML: its aliases \(\*name\) expand to too much data/],
  'no-body.md': [/no-body\.md:\d+ field "body": the article has no text after its frontmatter/],
  'control-character.md': [/control-character\.md:2 field "title": title must not contain control characters/],
  'no-frontmatter.md': [/no-frontmatter\.md:1: no frontmatter found/],
  'huge-file.md': [/huge-file\.md: file is 50 MB, larger than the limit of 1 MB \(see README, "Limits"\)/],
  'binary-junk.md': [/binary-junk\.md: file contains binary data/],
  'not-utf8.md': [/not-utf8\.md:1: file is not UTF-8 text/],
  'latin1.md': [/latin1\.md:2: file is not UTF-8 text: bytes on this line do not decode \(save the file as UTF-8/],
  '../../ads.json': [/ads\.json:1 field "sapeNewUrl"/, /ads\.json:1 field "sapeLinks\.no-slash"/, /ads\.json:1 field "sapeLinks\.\/ok"/],
};

/** Valid despite their shape: a byte-order mark and CRLF line ends are accepted, never reported. */
const ACCEPTED = ['byte-order-mark.md', 'crlf-line-ends.md'];

let contentDir: string;
let problems: Problem[];

beforeAll(async () => {
  contentDir = await fixtureCopy();
  await cp(CORPUS, contentDir, { recursive: true });
  const folder = path.join(contentDir, 'articles', 'en_US');
  // 50 MB: a valid frontmatter in front of 50 MB of text.
  const head =
    '---\ntitle: Huge\nslug: huge-file\ndescription: Too long.\nauthor: Mara Lindqvist\ndate: 2026-01-01\nlocale: en_US\nentities:\n  - category: bettingStrategies\n---\n';
  await writeFile(path.join(folder, 'huge-file.md'), Buffer.concat([Buffer.from(head), Buffer.alloc(50 * 1024 * 1024, 'lorem ipsum ')]));
  // Binary junk: every byte value, NUL included; and bytes that are not UTF-8 at all.
  await writeFile(path.join(folder, 'binary-junk.md'), Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256)));
  await writeFile(path.join(folder, 'not-utf8.md'), Buffer.from(Array.from({ length: 4096 }, (_, i) => 0x80 + ((i * 31) % 0x7f))));
  // A well-formed article saved as Latin-1 (an editor's default on some systems): "é" is one byte, 0xE9.
  await writeFile(
    path.join(folder, 'latin1.md'),
    Buffer.from(
      '---\ntitle: Café betting\nslug: latin1\ndescription: Saved in the wrong encoding.\nauthor: Mara Lindqvist\ndate: 2026-01-01\nlocale: en_US\nentities:\n  - category: bettingStrategies\n---\nText.\n',
      'latin1',
    ),
  );
  try {
    await loadContent(contentDir);
    problems = [];
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    problems = error.problems;
  }
}, 120_000);

describe('malformed content', () => {
  it('is reported by loadContent in one run, every file with its field, and nothing else breaks', () => {
    const lines = problems.map(formatProblem);
    if (process.env.DEBUG_PROBLEMS) console.log(lines.join('\n'));
    for (const [file, patterns] of Object.entries(EXPECTED)) {
      const mine = lines.filter((line) => line.includes(path.basename(file)));
      for (const pattern of patterns)
        expect(
          mine.some((line) => pattern.test(line)),
          `${file}: ${pattern} in\n${mine.join('\n')}`,
        ).toBe(true);
    }
    for (const file of ACCEPTED) expect(lines.filter((line) => line.includes(file))).toEqual([]);
    // The fixture's own articles stay clean: only the corpus is reported.
    const reported = new Set(problems.map((p) => path.basename(p.file)));
    for (const file of reported) expect(Object.keys(EXPECTED).map((f) => path.basename(f))).toContain(file);
  });

  it('names at most one line per problem and never dumps a file into a message', () => {
    for (const problem of problems) {
      expect(formatProblem(problem)).not.toContain('\n');
      expect(formatProblem(problem).length).toBeLessThan(600);
    }
  });

  it('makes `felt build` exit 1 with one line per problem, no stack trace, and no dist/', async () => {
    const out = path.join(path.dirname(contentDir), 'dist');
    const run = await runFelt(['build', '--content', contentDir, '--out', out], { timeoutMs: 90_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(run.stdout).not.toMatch(STACK_TRACE);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(problems.length + 1);
    expect(lines.at(-1)).toMatch(/^felt: \d+ problems in content/);
    for (const file of Object.keys(EXPECTED)) expect(run.stderr).toContain(path.basename(file));
    expect(existsSync(out)).toBe(false);
    await rm(path.join(contentDir, 'articles', 'en_US', 'huge-file.md'));
  }, 120_000);
});
