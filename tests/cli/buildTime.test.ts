/**
 * SOURCE_DATE_EPOCH fixes `felt build`'s time (feed dates, copyright year),
 * so two builds of the same content are the same bytes (the crash test's
 * reference build relies on it); anything but whole seconds is refused.
 */
import { describe, expect, it } from 'vitest';
import { buildTime } from '../../cli/commands/build.ts';
import { FeltError } from '../../shared/errors.ts';

describe('SOURCE_DATE_EPOCH', () => {
  it('is the build time when set, and now when not', () => {
    expect(buildTime('1795000000')?.toISOString()).toBe('2026-11-18T11:06:40.000Z');
    expect(buildTime(undefined)).toBeUndefined();
    expect(buildTime('')).toBeUndefined();
  });

  it('refuses what is not whole seconds, with a hint', () => {
    for (const bad of ['yesterday', '1.5', '-1', '1e9']) {
      const error = (() => {
        try {
          buildTime(bad);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, bad).toBeInstanceOf(FeltError);
      expect((error as FeltError).message).toContain(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${bad}"`);
    }
  });
});
