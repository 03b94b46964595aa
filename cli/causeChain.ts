/**
 * What FELT_DEBUG=1 adds under the CLI's one error line: the code and title
 * of a FeltError, the stage it came from, and each cause below it, with the
 * stack of anything that is not a FeltError (a library's or the OS's error,
 * or a bug). The caller redacts secrets: causes quote URLs and paths.
 */
import { FeltError, formatLocation } from '../shared/errors.ts';

/** Deeper than any chain felt makes; a cycle of causes stops here too. */
const MAX_DEPTH = 8;

export function causeChain(error: unknown): string[] {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth <= MAX_DEPTH && !seen.has(current); depth++) {
    seen.add(current);
    lines.push(depth === 0 ? describeTop(current) : `caused by: ${describeCause(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.flatMap((text) => text.split('\n')).map((line) => `  ${line}`);
}

/** The top error's message is the line already printed: only what it does not say. */
function describeTop(error: unknown): string {
  if (error instanceof FeltError) return `${error.code} (${error.title})${error.stage ? `, while ${error.stage}` : ''}`;
  return describeCause(error);
}

function describeCause(error: unknown): string {
  if (error instanceof FeltError) {
    const where = formatLocation(error.location);
    return `${error.code}: ${where ? `${where}: ` : ''}${error.message}`;
  }
  if (error instanceof Error) return error.stack?.includes(error.message) ? error.stack : `${error.name}: ${error.message}\n${error.stack ?? ''}`.trim();
  return String(error);
}
