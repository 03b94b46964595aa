import { FeltError } from '../../shared/errors.ts';

/**
 * Page data must survive JSON: a Date, a Map, a function or a cycle would be
 * silently changed by JSON.stringify. Fails the build naming the page and the
 * field (SPEC section 8, "props not serializable").
 */
export function assertSerializable(value: unknown, page: string, field = 'props', seen = new Set<object>()): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(page, field, String(value));
    return;
  }
  if (typeof value !== 'object') fail(page, field, `a ${typeof value}`);
  if (seen.has(value)) fail(page, field, 'a circular reference');
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((item, i) => (item === undefined ? fail(page, `${field}[${i}]`, 'undefined') : assertSerializable(item, page, `${field}[${i}]`, seen)));
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) fail(page, field, `a ${proto?.constructor?.name ?? 'non-plain object'}`);
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) assertSerializable(item, page, `${field}.${key}`, seen);
    }
  }
  seen.delete(value);
}

function fail(page: string, field: string, what: string): never {
  throw new FeltError('PAGE_NOT_SERIALIZABLE', `page ${page}: ${field} is ${what}, which JSON cannot hold`, { field });
}
