/**
 * Storage failures as FeltErrors with a stable code, so callers can tell a
 * lost race (a generation precondition) from a missing object or bad
 * credentials, and the CLI prints one line.
 */
import { FeltError } from '../../shared/errors.ts';

export const PRECONDITION_FAILED = 'STORAGE_PRECONDITION_FAILED';
export const NOT_FOUND = 'STORAGE_NOT_FOUND';
export const UNAVAILABLE = 'STORAGE_UNAVAILABLE';

/**
 * A failure worth trying again (429, a 5xx, a dropped connection), with the
 * wait the server asked for in Retry-After, if it asked.
 */
export class StorageUnavailableError extends FeltError {
  constructor(
    where: string,
    reason: string,
    readonly retryAfterMs: number | undefined,
    cause: unknown,
  ) {
    super(UNAVAILABLE, `${where}: ${reason}`, { cause });
  }
}

export function preconditionFailed(where: string): FeltError {
  return new FeltError(PRECONDITION_FAILED, `${where} changed since it was read (generation precondition failed)`);
}

export function notFound(where: string): FeltError {
  return new FeltError(NOT_FOUND, `${where} does not exist`);
}

export function isPreconditionFailed(error: unknown): boolean {
  return error instanceof FeltError && error.code === PRECONDITION_FAILED;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof FeltError && error.code === NOT_FOUND;
}
