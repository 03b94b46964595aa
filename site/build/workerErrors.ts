import { FeltError, isErrorCode } from '../../shared/errors.ts';

/** An error as it can cross a thread boundary (classes do not survive postMessage). */
export interface SerializedError {
  code?: string;
  message: string;
  hint?: string;
  file?: string;
  field?: string;
  stage?: string;
  stack?: string;
  /** What caused it, so FELT_DEBUG=1 shows the whole chain for a page a worker failed on. */
  cause?: SerializedError;
}

/** Deep enough for any chain felt makes; a cycle of causes stops here too. */
const MAX_CAUSES = 8;

export function serializeError(error: unknown, depth = 0): SerializedError {
  const cause = error instanceof Error && error.cause !== undefined && depth < MAX_CAUSES ? serializeError(error.cause, depth + 1) : undefined;
  if (error instanceof FeltError)
    return { code: error.code, message: error.message, hint: error.hint, file: error.location.file, field: error.location.field, stage: error.stage, cause };
  return error instanceof Error ? { message: error.message, stack: error.stack, cause } : { message: String(error) };
}

export function deserializeError(error: SerializedError): Error {
  const cause = error.cause ? deserializeError(error.cause) : undefined;
  if (error.code && isErrorCode(error.code))
    return new FeltError(error.code, error.message, { hint: error.hint, file: error.file, field: error.field, stage: error.stage, cause });
  const restored = new Error(error.message, { cause });
  if (error.stack) restored.stack = error.stack;
  return restored;
}
