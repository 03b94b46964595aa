/**
 * cli/report.ts is felt's one progress display: the per-item bar of publish,
 * pull, deploy and generate and the counted, delayed bar of felt build are
 * the same bar, with the same terminal, log and --json behaviour.
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
