/**
 * felt check through the CLI's entry point: exit 0 on the bundled content,
 * exit 1 with every problem on stdout and one error line on stderr, and a
 * JSON report for scripts. No colour codes unless asked for.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { colorEnabled } from '../../cli/help.ts';
import { BUNDLED_CONTENT, fixtureCopy } from '../site/helpers.ts';

let out: string[];
let err: string[];

beforeEach(() => {
  out = [];
  err = [];
  process.exitCode = undefined;
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const felt = (...args: string[]) => main(['node', 'felt', ...args]);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('felt check', () => {
  it('passes the bundled content with exit code 0 and a summary', async () => {
    expect(await felt('check', '--content', BUNDLED_CONTENT)).toBe(0);
    expect(out.join('\n')).toMatch(/no errors: \d+ articles \(en_US \d+, ru_RU \d+, tr_TR \d+\), \d+ authors, 7 categories, \d+ UI strings/);
    // eslint-disable-next-line no-control-regex -- asserts that no ANSI colour escape is printed
    expect(out.join('\n')).not.toMatch(/\x1b\[/);
  });

  it('lists every problem with file:line and field, and exits 1', async () => {
    const dir = await fixtureCopy({ 'articles/en_US/two.md': '---\ntitle: Two\nslug: Two\n---\nText\n' });
    expect(await felt('check', '--content', dir)).toBe(1);
    const printed = out.join('\n');
    expect(printed).toMatch(/^error +\S*two\.md:3 field "slug": slug must be lowercase/m);
    expect(printed).toMatch(/^error +\S*two\.md:1 field "author": author is required/m);
    expect(err.join('\n')).toMatch(/^felt: \d+ errors in content or UI strings/);
  });

  it('refuses a title or description written over several lines, at its line, naming the fix', async () => {
    const dir = await fixtureCopy({
      'articles/en_US/two-lines.md':
        '---\ntitle: |\n  Bankroll basics\n  for beginners\nslug: two-lines\ndescription: "One line,\\nthen another."\nauthor: Mara Lindqvist\ndate: 2026-01-01\nlocale: en_US\nentities:\n  - category: bettingStrategies\n---\nText\n',
    });
    expect(await felt('check', '--content', dir)).toBe(1);
    const errors = out
      .join('\n')
      .split('\n')
      .filter((line) => line.includes('two-lines.md'));
    const fix = 'must be on one line: join its lines into one (a line break in it would show in listings, feeds and search results)';
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^error +\\S*two-lines\\.md:2 field "title": title ${escape(fix)}$`)),
      expect.stringMatching(new RegExp(`^error +\\S*two-lines\\.md:6 field "description": description ${escape(fix)}$`)),
    ]);
    // Folded or plain YAML over several lines reads as one line, and passes.
    const folded = await fixtureCopy({
      'articles/en_US/folded.md':
        '---\ntitle: >\n  Bankroll basics\n  for beginners\nslug: folded\ndescription: One line\n  read as one.\nauthor: Mara Lindqvist\ndate: 2026-01-01\nlocale: en_US\nentities:\n  - category: bettingStrategies\n---\nText\n',
    });
    out.length = 0;
    await felt('check', '--content', folded);
    expect(out.join('\n')).not.toMatch(/folded\.md/);
  });

  it("warns of what lies in articles/ outside the content locales' folders, which the build does not read", async () => {
    const article = '---\ntitle: Lost\nslug: lost\ndescription: Lost.\nauthor: Ana\ndate: 2026-01-01\nlocale: en_US\n---\nText\n';
    const dir = await fixtureCopy();
    await mkdir(path.join(dir, 'articles', 'fr_FR'), { recursive: true });
    for (const file of ['articles/fr_FR/lost.md', 'articles/stray.md']) await writeFile(path.join(dir, file), article);
    await writeFile(path.join(dir, 'articles', '.DS_Store'), '');
    await felt('check', '--content', dir, '--json');
    const report = JSON.parse(out.join('\n'));
    const stray = report.problems.filter((p: { message: string }) => p.message.startsWith("is not in a content locale's folder"));
    expect(stray.map((p: { file: string; severity: string }) => [path.basename(p.file), p.severity]).sort()).toEqual([
      ['fr_FR', 'warning'],
      ['stray.md', 'warning'],
    ]);
    // Beside errors too: a stray folder may be their cause (it was left out whenever the content had an error).
    await writeFile(path.join(dir, 'articles', 'en_US', 'broken.md'), '---\ntitle: [\n---\n');
    out.length = 0;
    await felt('check', '--content', dir, '--json');
    const broken = JSON.parse(out.join('\n')) as { errors: number; problems: { message: string; file: string }[] };
    expect(broken.errors).toBeGreaterThan(0);
    expect(
      broken.problems
        .filter((p) => p.message.startsWith("is not in a content locale's folder"))
        .map((p) => path.basename(p.file))
        .sort(),
    ).toEqual(['fr_FR', 'stray.md']);
  });

  it('warns of a sponsored snippet that sanitising leaves without a link, at its line: no page would show it', async () => {
    const dir = await fixtureCopy();
    const ads = {
      sapeNewUrl: '<script>steal()</script>',
      sapeLinks: { '/': ['<a href="https://ok.example/">Kept</a>', '<a href="javascript:steal()">Gone</a>', '<img src=x onerror=steal()>'] },
    };
    const text = JSON.stringify(ads, null, 2);
    await writeFile(path.join(dir, 'ads.json'), text);
    await felt('check', '--content', dir, '--json');
    const report = JSON.parse(out.join('\n'));
    const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
    const emptied = report.problems.filter((p: { message: string }) => /once sanitised, so no page shows it/.test(p.message));
    expect(emptied.map((p: { field: string; line: number; severity: string }) => [p.field, p.line, p.severity])).toEqual([
      ['sapeNewUrl', lineOf('sapeNewUrl'), 'warning'],
      ['sapeLinks./.1', lineOf('javascript:'), 'warning'],
      ['sapeLinks./.2', lineOf('<img'), 'warning'],
    ]);
  });

  it('prints a JSON report for scripts', async () => {
    const dir = await fixtureCopy({ 'articles/en_US/two.md': '---\ntitle: Two\n---\nText\n' });
    expect(await felt('check', '--content', dir, '--json')).toBe(1);
    const report = JSON.parse(out.join('\n'));
    expect(report.ok).toBe(false);
    expect(report.errors).toBeGreaterThan(3);
    expect(report.problems[0]).toMatchObject({ file: expect.stringContaining('two.md'), line: 1, severity: 'error' });
  });
});

describe('colour', () => {
  it('follows NO_COLOR, FORCE_COLOR and the terminal', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('help', () => {
  it("ends every command's help with examples", async () => {
    const { createProgram } = await import('../../cli/main.ts');
    const program = createProgram();
    for (const command of [program, ...program.commands.filter((c) => c.name() !== 'help')]) {
      let text = '';
      command.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s), getOutHasColors: () => false });
      command.exitOverride();
      try {
        await program.parseAsync(command === program ? ['node', 'felt', '--help'] : ['node', 'felt', command.name(), '--help']);
      } catch {
        // --help ends through exitOverride
      }
      expect(text, command.name()).toMatch(/Examples:\n {2}\$ felt /);
      // eslint-disable-next-line no-control-regex -- asserts that no ANSI colour escape is printed
      expect(text, command.name()).not.toMatch(/\x1b\[/);
    }
  });
});
