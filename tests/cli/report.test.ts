/**
 * cli/report.ts is felt's one progress display: the per-item bar of publish,
 * pull, deploy and generate and the counted, delayed bar of felt build are
 * the same bar, with the same terminal, log and --json behaviour, and what
 * it prints of a bucket's names cannot drive the terminal.
 */
import { describe, expect, it } from 'vitest';
import { textSink, wait } from '../support/textSink.ts';
import { delayedProgress } from '../../cli/commands/build.ts';
import { createReporter } from '../../cli/report.ts';

const sink = textSink;

describe('the progress display', () => {
  it('draws one bar whether work is ticked per item or counted', async () => {
    const items = sink();
    const pull = createReporter({ stderr: items.stream, tty: true }).progress('pull', 4);
    pull.tick('wrote a.md');
    pull.tick('wrote b.md');
    pull.done();
    const counted = sink();
    const build = delayedProgress('tty', 10, counted.stream);
    await wait(30);
    build.update(2, 4);
    build.finish();
    expect(items.text()).toContain('\r\x1b[2Kpull [############............] 2/4');
    expect(counted.text()).toContain('\r\x1b[2Kbuilding pages [############............] 2/4');
    for (const out of [items, counted]) expect(out.text().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('in a log, prints a line per item and a bar line per count, without control codes', async () => {
    const out = sink();
    const reporter = createReporter({ stderr: out.stream, tty: false });
    const publish = reporter.progress('publish', 2);
    publish.tick('copied a.md');
    publish.note('retrying after 429 in 1.0 s');
    publish.tick('copied b.md');
    publish.done();
    const counted = reporter.progress('building pages', 0, { delayMs: 10, waiting: 'building: loading content…' });
    await wait(30);
    counted.update(3, 4);
    counted.done();
    expect(out.text().split('\n')).toEqual([
      '[1/2] copied a.md',
      'retrying after 429 in 1.0 s',
      '[2/2] copied b.md',
      'building: loading content…',
      'building pages [##################......] 3/4',
      '',
    ]);
  });

  it("writes a bucket's object name with control codes as text: it cannot retitle, clear or rewrite the terminal or a log", () => {
    // What a review put in a bucket: set the window title, clear the screen, print a fake "all good", hide what follows.
    const hostile = 'articles/en_US/\x1b]0;PWNED\x1b\\\x1b[2J\x1b[H\x1b[32mpull: all good\x1b[0m\x1b[8m\u202e.md';
    for (const tty of [true, false]) {
      const out = sink();
      const err = sink();
      const reporter = createReporter({ stdout: out.stream, stderr: err.stream, tty });
      reporter.print(`download ${hostile}`);
      reporter.note(`skipped: ${hostile}: not an article name`);
      const progress = reporter.progress('pull', 1);
      progress.tick(`wrote ${hostile}`);
      progress.note(`retrying ${hostile}`);
      progress.done();
      const printed = out.text() + err.text();
      // The bar's own codes only (\r\x1b[2K, on a terminal): no other ESC, no bidirectional override.
      // eslint-disable-next-line no-control-regex -- control characters are what must not be printed
      expect(printed.replaceAll('\r\x1b[2K', ''), `tty: ${tty}`).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
      expect(out.text()).toContain(
        'download articles/en_US/\\u{1b}]0;PWNED\\u{1b}\\\\u{1b}[2J\\u{1b}[H\\u{1b}[32mpull: all good\\u{1b}[0m\\u{1b}[8m\\u{202e}.md\n',
      );
    }
  });

  it('--json escapes what JSON.stringify leaves raw (C1 controls, bidirectional overrides): the same value, nothing to drive a terminal', () => {
    const out = sink();
    const value = { skipped: [{ name: 'articles/en_US/a\u202eb\u009b2J.md', reason: 'bad name' }] };
    createReporter({ stdout: out.stream, json: true }).json(value);
    // eslint-disable-next-line no-control-regex -- control characters are what must not be printed
    expect(out.text()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(out.text())).toEqual(value);
  });

  it('keeps a note or an item to one line, cut at 2,000 characters: a name or a message cannot forge a second line', () => {
    const err = sink();
    const reporter = createReporter({ stderr: err.stream, tty: false });
    reporter.note('failed: slot 1: 400 bad\r\nfelt: fine');
    const progress = reporter.progress('deploy', 1);
    progress.tick('uploaded new\nline.html');
    progress.done();
    reporter.note(`failed: slot 2: ${'x'.repeat(5_000_000)}`);
    const lines = err.text().split('\n');
    expect(lines.slice(0, 2)).toEqual(['failed: slot 1: 400 bad\\u{a}felt: fine', '[1/1] uploaded new\\u{a}line.html']);
    expect(lines[2]).toBe(`failed: slot 2: ${'x'.repeat(2000 - 'failed: slot 2: '.length)}… (4,998,016 more characters)`);
    expect(lines).toHaveLength(4);
  });

  it('takes a CRLF line end for a line end, and writes a lone CR out (it would rewrite the line)', () => {
    const out = sink();
    createReporter({ stdout: out.stream, tty: false }).print('first line\r\nsecond\rline');
    expect(out.text()).toBe('first line\nsecond\\u{d}line\n');
  });

  it('with a delay, draws nothing for work that ends before it, and nothing once done', async () => {
    const out = sink();
    const progress = createReporter({ stderr: out.stream, tty: true }).progress('deploy', 3, { delayMs: 30 });
    progress.tick();
    progress.done();
    progress.tick();
    progress.update(3, 3);
    await wait(50);
    expect(out.text()).toBe('');
  });

  it('prints nothing on stderr with --json', () => {
    const out = sink();
    const progress = createReporter({ json: true, stderr: out.stream, tty: true }).progress('generate', 2);
    progress.tick('stored x');
    progress.update(2, 2);
    progress.note('slot 1: asking again');
    progress.done();
    expect(out.text()).toBe('');
  });
});
