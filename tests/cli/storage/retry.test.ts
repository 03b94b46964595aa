/**
 * The retry of storage calls (issue 17): full jitter under a doubling
 * ceiling, never sooner than Retry-After, no retry of what is not worth one
 * or of a Retry-After longer than the longest wait.
 */
import { describe, expect, it } from 'vitest';
import { FeltError } from '../../../shared/errors.ts';
import { StorageUnavailableError } from '../../../cli/storage/errors.ts';
import { parseRetryAfter, retryWait, withRetries } from '../../../cli/storage/retry.ts';

const policy = { retries: 3, baseMs: 100, maxWaitMs: 1000 };

describe('storage retries', () => {
  it('spreads waits with jitter under a doubling ceiling, and waits at least Retry-After', () => {
    expect([1, 2, 3, 4, 5].map((retry) => retryWait(retry, policy, undefined, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(retryWait(3, policy, undefined, () => 0)).toBe(0);
    expect(retryWait(1, policy, 2000, () => 0)).toBe(2000);
    expect(retryWait(1, policy, 2000, () => 1)).toBe(2100);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('retries only an unavailable storage, and gives up after the retries or on a Retry-After past the longest wait', async () => {
    let calls = 0;
    const unavailable = (retryAfterMs?: number) => new StorageUnavailableError('gs://b/x', '503 busy', retryAfterMs, undefined);
    const notes: number[] = [];
    await expect(
      withRetries(
        async () => {
          calls++;
          if (calls < 3) throw unavailable();
          return 'ok';
        },
        { ...policy, baseMs: 1 },
        (_reason, retry) => notes.push(retry),
      ),
    ).resolves.toBe('ok');
    expect(notes).toEqual([1, 2]);
    calls = 0;
    await expect(withRetries(async () => (calls++, Promise.reject(unavailable())), { ...policy, baseMs: 1 })).rejects.toThrow(/503 busy/);
    expect(calls).toBe(4);
    calls = 0;
    await expect(withRetries(async () => (calls++, Promise.reject(new FeltError('STORAGE_DENIED', 'no'))), policy)).rejects.toThrow(/no/);
    expect(calls).toBe(1);
    calls = 0;
    await expect(withRetries(async () => (calls++, Promise.reject(unavailable(60_000))), policy)).rejects.toThrow(/503 busy/);
    expect(calls).toBe(1);
  });
});
