/**
 * Trying a storage call again after a failure worth retrying (a 429, a 5xx,
 * a dropped connection: StorageUnavailableError). The storage client retries
 * an upload only when it carries a generation precondition; a deploy's
 * uploads carry none (the same bytes written twice are the same object), so
 * it retries them here: exponential backoff with full jitter (many uploads
 * failing together do not come back together), never sooner than the
 * server's Retry-After, and not at all when that asks for longer than the
 * longest wait allowed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageUnavailableError } from './errors.ts';

export interface RetryPolicy {
  /** Tries after the first (default 4). */
  retries: number;
  /** The first backoff's ceiling; each next one doubles (default 500 ms). */
  baseMs: number;
  /** The longest single wait, Retry-After included (default 30 s). */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseMs: 500, maxWaitMs: 30_000 };

/** Told before each wait: the failure, the retry about to be made (1 for the first), the most there will be, and the wait. */
export type OnRetry = (reason: string, retry: number, retries: number, waitMs: number) => void;

/** The wait before retry number `retry` (1-based): full jitter under the doubling ceiling, at least Retry-After. */
export function retryWait(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxWaitMs, policy.baseMs * 2 ** (retry - 1));
  const jittered = Math.round(random() * ceiling);
  // A little jitter on top of Retry-After too, so every upload told "1 s" does not return in the same millisecond.
  return retryAfterMs === undefined ? jittered : retryAfterMs + Math.round(random() * Math.min(policy.baseMs, ceiling));
}

export async function withRetries<T>(work: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY, onRetry?: OnRetry): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof StorageUnavailableError) || retry > policy.retries) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxWaitMs) throw error;
      const wait = retryWait(retry, policy, error.retryAfterMs);
      onRetry?.(error.message, retry, policy.retries, wait);
      await sleep(wait);
    }
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
