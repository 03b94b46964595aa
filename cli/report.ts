/**
 * How long work reports itself: a progress bar on a terminal, one plain line
 * per item when the output is not a terminal (CI logs), and nothing but one
 * JSON document on stdout with --json, for scripts. Everything printed goes
 * through redactSecrets. `felt build` can reuse it: createReporter({ json }).
 */
import type { Writable } from 'node:stream';
import { redactSecrets } from './secrets.ts';

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
  /** A note about an item that does not advance the count (a retry, a re-ask). */
  note(line: string): void;
  done(): void;
}

export interface Reporter {
  readonly mode: OutputMode;
  /** A line of the human result (the plan, the summary): stdout, not in --json. */
  print(line: string): void;
  /** A side note (warnings, hints): stderr, not in --json. */
  note(line: string): void;
  progress(label: string, total: number): Progress;
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
  let clearBar = () => {};
  return {
    mode,
    print(line) {
      if (mode === 'json') return;
      clearBar();
      write(stdout, `${line}\n`);
    },
    note(line) {
      if (mode === 'json') return;
      clearBar();
      write(stderr, `${line}\n`);
    },
    json(value) {
      if (mode === 'json') write(stdout, `${JSON.stringify(value, null, 2)}\n`);
    },
    progress(label, total) {
      let count = 0;
      let drawn = false;
      const draw = () => {
        if (mode !== 'tty') return;
        const filled = total ? Math.round((count / total) * BAR_WIDTH) : BAR_WIDTH;
        write(stderr, `\r${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${count}/${total}`);
        drawn = true;
      };
      clearBar = () => {
        if (drawn) write(stderr, '\r\x1b[2K');
        drawn = false;
      };
      draw();
      return {
        tick(line) {
          count++;
          if (mode === 'plain') write(stderr, `[${count}/${total}] ${line ?? label}\n`);
          draw();
        },
        note(line) {
          if (mode === 'json') return;
          clearBar();
          write(stderr, `${line}\n`);
          draw();
        },
        done() {
          clearBar();
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
