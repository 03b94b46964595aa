/**
 * felt's exit codes: the one list a scheduled job or a script reads.
 *
 * A night of many articles must not end at its first bad one (issue 17): work that finished with some
 * items skipped is neither a success nor a failure, so it has its own code that a workflow can treat
 * as a warning.
 */
export const EXIT = {
  /** Everything asked for was done. */
  ok: 0,
  /** An expected failure (bad input, a refused flag, a provider or bucket that said no): one `felt:` line. */
  failed: 1,
  /** The run finished, but some items were skipped and reported (a bad article, an invalid object). */
  doneWithSkips: 2,
  /** A bug in felt (EX_SOFTWARE): the line asks for a report. */
  unexpected: 70,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
