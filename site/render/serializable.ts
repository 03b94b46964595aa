import { FeltError } from '../../shared/errors.ts';

/**
 * Page data must survive JSON: a Date, a Map, a function or a cycle would be
 * silently changed by JSON.stringify. Fails the build naming the page and the
 * field (SPEC section 8, "props not serializable").
 */
export type SerializableCheck = (props: unknown, page: string) => void;

/**
 * One check per build. An object found to be plain JSON is remembered and not
 * walked again: an article's summary sits in the props of a dozen pages (its
 * listings, its neighbours' related lists), and walking each of them every
 * time was a fifth of a second of a 10,000-article build. The build's model
 * is never changed once made, so an object that was plain JSON still is.
 */
export function createSerializableCheck(): SerializableCheck {
  const plain = new WeakSet<object>();
  // Named, for CPU profiles (bench/profile.mjs).
  return function checkPageData(props, page) {
    try {
      walk(props, 0, plain);
    } catch (error) {
      if (error === TOO_DEEP) {
        const cycle = cyclePath(props, new Set());
        fail(page, `props${cycle ?? ''}`, cycle === undefined ? `nested deeper than ${DEEPEST} levels` : 'a circular reference');
      }
      if (error instanceof NotJson) fail(page, `props${error.path.reverse().join('')}`, error.what);
      throw error;
    }
  };
}

/** Thrown up the walk, each level adding its key, so that the walk makes no field name unless one is wrong. */
class NotJson {
  readonly path: string[] = [];
  constructor(readonly what: string) {}
}

/**
 * Deeper than any page's props are (a listing's are five levels deep): past it the walk is taken to be going round
 * a cycle. Counting levels costs nothing, where a set of the objects on the path cost most of the walk.
 */
const DEEPEST = 64;

function walk(value: unknown, depth: number, plain: WeakSet<object>): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NotJson(String(value));
    return;
  }
  if (typeof value !== 'object') throw new NotJson(`a ${typeof value}`);
  if (plain.has(value)) return;
  if (depth > DEEPEST) throw TOO_DEEP;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) within(i, value[i], depth + 1, plain);
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new NotJson(`a ${proto?.constructor?.name ?? 'non-plain object'}`);
    for (const key of Object.keys(value)) within(key, (value as Record<string, unknown>)[key], depth + 1, plain);
  }
  plain.add(value);
}

/** An array's item (by index) or an object's field (by name): undefined is absent in an object and wrong in an array. */
function within(key: number | string, item: unknown, depth: number, plain: WeakSet<object>): void {
  try {
    if (item === undefined) {
      if (typeof key === 'string') return;
      throw new NotJson('undefined');
    }
    walk(item, depth, plain);
  } catch (error) {
    if (error instanceof NotJson) error.path.push(typeof key === 'number' ? `[${key}]` : `.${key}`);
    throw error;
  }
}

/** Thrown past DEEPEST levels, without a path: the field is then found by cyclePath. */
const TOO_DEEP = Symbol('too deep');

/** Where props first lead back to an object they came through, walked again with the path's objects in a set. */
function cyclePath(value: unknown, onPath: Set<object>): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (onPath.has(value)) return '';
  onPath.add(value);
  const entries: [number | string, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [key, item] of entries) {
    const rest = cyclePath(item, onPath);
    if (rest !== undefined) return `${typeof key === 'number' ? `[${key}]` : `.${key}`}${rest}`;
  }
  onPath.delete(value);
  return undefined;
}

function fail(page: string, field: string, what: string): never {
  throw new FeltError('PAGE_NOT_SERIALIZABLE', `page ${page}: ${field} is ${what}, which JSON cannot hold`, { field });
}
