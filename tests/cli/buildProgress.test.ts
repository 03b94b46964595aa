/** felt build's progress: nothing for a build under a second, a bar on a terminal, plain lines in CI. */
import { describe, expect, it } from 'vitest';
import { textSink, wait } from '../support/textSink.ts';
import { delayedProgress } from '../../cli/commands/build.ts';

const sink = textSink;

describe('build progress', () => {
  it('draws nothing when the build ends before the delay', async () => {
    const out = sink();
    const progress = delayedProgress('tty', 50, out.stream);
    progress.update(10, 10);
    progress.finish();
    await wait(80);
    expect(out.text()).toBe('');
  });

  it('shows a bar on a terminal once the delay has passed, and clears it', async () => {
    const out = sink();
    const progress = delayedProgress('tty', 20, out.stream);
    await wait(40);
    progress.update(250, 1000);
    progress.finish();
    expect(out.text()).toContain('\r\x1b[2Kbuilding pages [######..................] 250/1000');
    expect(out.text().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('prints plain lines without control codes when not on a terminal', async () => {
    const out = sink();
    const progress = delayedProgress('plain', 20, out.stream);
    await wait(40);
    progress.update(500, 1000);
    progress.finish();
    // eslint-disable-next-line no-control-regex -- no carriage return or ANSI escape reaches a log
    expect(out.text()).not.toMatch(/[\r\x1b]/);
    expect(out.text().trim().split('\n')).toHaveLength(2);
  });

  it('logs a line per tenth of the pages, however many updates there are', async () => {
    const out = sink();
    const progress = delayedProgress('plain', 20, out.stream);
    await wait(40);
    for (let done = 500; done < 118_715; done += 500) progress.update(done, 118_715);
    progress.update(118_715, 118_715);
    progress.finish();
    const lines = out.text().trim().split('\n');
    // The waiting line, then one line as each tenth is reached (0 to 10).
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.at(-1)).toContain('118715/118715');
  });
});
