/**
 * How long work reports itself: a progress bar on a terminal, one plain line
 * per item when the output is not a terminal (CI logs), and nothing but one
 * JSON document on stdout with --json, for scripts. Everything printed goes
 * through redactSecrets. This is felt's one progress display: publish, pull,
 * deploy and generate tick it per item, `felt build` updates it with counts.
 */
import type { Writable } from 'node:stream';
import { redactSecrets } from './secrets.ts';
import { jsonSafe, oneLine, terminalSafe } from './terminalText.ts';

export type OutputMode = 'tty' | 'plain' | 'json';

export interface ReporterOptions {
  json?: boolean;
  /** Where results go (default process.stdout). */
  stdout?: Writable;
  /** Where progress and notes go (default process.stderr). */
  stderr?: Writable;
  /** Whether stderr is a terminal (default: its isTTY). */
  tty?: boolean;
}

export interface Progress {
  /** One item finished; `line` is what a log shows for it. */
  tick(line?: string): void;
  /** Work counted rather than itemised (pages rendered): the bar shows `done` of `total`, a log gets the bar as a line. */
  update(done: number, total: number): void;
  /** A note about an item that does not advance the count (a retry, a re-ask). */
  note(line: string): void;
  /** Clears the bar; nothing is drawn after it. */
  done(): void;
}

export interface ProgressOptions {
  /** Draw the bar only once the work has taken this long: short work prints nothing (item lines of a log still do). */
  delayMs?: number;
  /** Shown in place of the bar while the total is not known yet (0). */
  waiting?: string;
}

export interface Reporter {
  readonly mode: OutputMode;
  /** A line of the human result (the plan, the summary): stdout, not in --json. */
  print(line: string): void;
  /** A side note (warnings, hints): stderr, not in --json. */
  note(line: string): void;
  progress(label: string, total: number, options?: ProgressOptions): Progress;
  /** The machine-readable result: printed only in --json mode. */
  json(value: unknown): void;
}

const BAR_WIDTH = 24;

export function createReporter(options: ReporterOptions = {}): Reporter {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const tty = options.tty ?? Boolean((stderr as { isTTY?: boolean }).isTTY);
  const mode: OutputMode = options.json ? 'json' : tty ? 'tty' : 'plain';
  const write = (stream: Writable, text: string) => stream.write(redactSecrets(text));
  // A line of text: what it names may come from a bucket (terminalSafe); the bar's own control codes are written raw.
  const writeLine = (stream: Writable, text: string) => write(stream, `${terminalSafe(text)}\n`);
  // A note or an item is one line: a line break in what it names is written out (oneLine).
  const writeOneLine = (stream: Writable, text: string) => write(stream, `${oneLine(text)}\n`);
  let clearBar = () => {};
  return {
    mode,
    print(line) {
      if (mode === 'json') return;
      clearBar();
      writeLine(stdout, line);
    },
    note(line) {
      if (mode === 'json') return;
      clearBar();
      writeOneLine(stderr, line);
    },
    json(value) {
      if (mode === 'json') write(stdout, `${jsonSafe(JSON.stringify(value, null, 2))}\n`);
    },
    progress(label, total, options = {}) {
      let count = 0;
      // In a log, a progress line per tenth of the work: a build of 100,000 articles updates 237 times.
      let loggedTenth = -1;
      let drawn = false;
      let finished = false;
      // With a delay, the bar waits for the timer; without one it is drawn at once.
      let visible = !options.delayMs;
      const line = () => {
        if (!total && options.waiting) return options.waiting;
        const filled = total ? Math.round((count / total) * BAR_WIDTH) : BAR_WIDTH;
        return `${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${count}/${total}`;
      };
      const draw = () => {
        if (!visible || finished || mode !== 'tty') return;
        write(stderr, `\r\x1b[2K${terminalSafe(line())}`);
        drawn = true;
      };
      clearBar = () => {
        if (drawn) write(stderr, '\r\x1b[2K');
        drawn = false;
      };
      const timer = options.delayMs
        ? setTimeout(() => {
            visible = true;
            if (mode === 'plain') writeLine(stderr, line());
            draw();
          }, options.delayMs)
        : undefined;
      timer?.unref();
      draw();
      return {
        tick(itemLine) {
          count++;
          if (mode === 'plain' && !finished) writeOneLine(stderr, `[${count}/${total}] ${itemLine ?? label}`);
          draw();
        },
        update(done, newTotal) {
          count = done;
          total = newTotal;
          const tenth = total ? Math.floor((10 * count) / total) : 0;
          if (mode === 'plain' && visible && !finished && tenth !== loggedTenth) {
            loggedTenth = tenth;
            writeLine(stderr, line());
          }
          draw();
        },
        note(noteLine) {
          if (mode === 'json') return;
          clearBar();
          writeOneLine(stderr, noteLine);
          draw();
        },
        done() {
          clearTimeout(timer);
          clearBar();
          finished = true;
          clearBar = () => {};
        },
      };
    },
  };
}

/** "3 articles", "1 article". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
