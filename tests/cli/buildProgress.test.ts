/** felt build's progress: nothing for a build under a second, a bar on a terminal, plain lines in CI. */
import { describe, expect, it } from 'vitest';
import { textSink, wait } from '../helpers/textSink.ts';
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
});
