import { FeltError } from '../../shared/errors.ts';

/** An error as it can cross a thread boundary (classes do not survive postMessage). */
export interface SerializedError {
  code?: string;
  message: string;
  hint?: string;
  file?: string;
  field?: string;
  stack?: string;
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof FeltError) return { code: error.code, message: error.message, hint: error.hint, file: error.location.file, field: error.location.field };
  return error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
}

export function deserializeError(error: SerializedError): Error {
  if (error.code) return new FeltError(error.code, error.message, { hint: error.hint, file: error.file, field: error.field });
  const restored = new Error(error.message);
  if (error.stack) restored.stack = error.stack;
  return restored;
}
