// One home for the bench scripts' command lines: each script gives its usage and its parseArgs options, and a
// mistyped option or --help ends in that usage, not in Node's stack trace, the same way in every script.
import { parseArgs } from 'node:util';

/**
 * parseArgs(config) with -h/--help added. On --help, prints the usage and exits 0; on a command line parseArgs
 * refuses (an unknown option, a missing value), prints its one-line message and the usage to stderr and exits 2.
 * Otherwise returns parseArgs' result: { values, positionals }.
 */
export function benchArgs(usage, config = {}) {
  let parsed;
  try {
    parsed = parseArgs({ ...config, options: { ...config.options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}
