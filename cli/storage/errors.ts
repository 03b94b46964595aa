/**
 * Storage failures as FeltErrors with a stable code, so callers can tell a
 * lost race (a generation precondition) from a missing object or bad
 * credentials, and the CLI prints one line.
 */
import { FeltError } from '../../shared/errors.ts';
import { formatBytes } from '../../shared/limits.ts';
import type { Bucket } from './types.ts';

export const PRECONDITION_FAILED = 'STORAGE_PRECONDITION_FAILED';
export const NOT_FOUND = 'STORAGE_NOT_FOUND';
export const UNAVAILABLE = 'STORAGE_UNAVAILABLE';
export const TOO_LARGE = 'OBJECT_TOO_LARGE';

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

/** The refusal of an object past a read's `maxBytes` (the catalogue's hint says what to do). */
export function objectTooLarge(where: string, maxBytes: number): FeltError {
  return new FeltError(TOO_LARGE, `${where} is larger than the limit of ${formatBytes(maxBytes)}, whatever its listing says`);
}

function isTooLarge(error: unknown): boolean {
  return error instanceof FeltError && error.code === TOO_LARGE;
}

/** An object's bytes when it holds at most `maxBytes`; undefined when it holds more (Bucket.read's OBJECT_TOO_LARGE). */
export async function readWithin(bucket: Bucket, name: string, maxBytes: number): Promise<Buffer | undefined> {
  try {
    return await bucket.read(name, { maxBytes });
  } catch (error) {
    if (isTooLarge(error)) return undefined;
    throw error;
  }
}

/** An object's bytes, at most `maxBytes` of them; one larger is refused with the caller's own error, `refusal()`. */
export async function readOrRefuse(bucket: Bucket, name: string, maxBytes: number, refusal: () => FeltError): Promise<Buffer> {
  const data = await readWithin(bucket, name, maxBytes);
  if (!data) throw refusal();
  return data;
}
