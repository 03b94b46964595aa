/**
 * The JSX runtime of felt's Node bundle (scripts/compile.mjs resolves
 * `react/jsx-runtime` to this file for felt's own sources; the browser's
 * bundle keeps React's). An element is made as the object React's own
 * production `jsx()` returns, without copying its props: the object the
 * compiler wrote at the call site is already new, holds no `key` (passed on
 * its own) and is never changed afterwards. This is what Babel's
 * transform-react-inline-elements did for React's production builds.
 *
 * React's `jsx()` copies every prop through a for-in loop with an own-
 * property test, for each of about 170 elements a page (193,590 in a cold
 * build of the bench's 1,000 articles with one render thread): the largest
 * single part of React's time in a 10,000-article build's CPU profile
 * (issue #13). Anything the copy would change goes to React's
 * function as before: a `key` or `ref` among the props (a spread), and a
 * component with defaultProps. The shape below is React 18's (package.json
 * pins react 18.3.1; React 19's elements differ), and
 * tests/site/jsxRuntime.test.ts checks that each element, and the pages
 * rendered from them, are React's own.
 */
import { Fragment, jsx as reactJsx } from 'react/jsx-runtime';

const REACT_ELEMENT = Symbol.for('react.element');

type Props = Record<string, unknown>;

export function jsx(type: unknown, props: Props, key?: unknown): unknown {
  if (props.key !== undefined || props.ref !== undefined || (type as { defaultProps?: unknown } | null)?.defaultProps) {
    return (reactJsx as (type: unknown, props: Props, key?: unknown) => unknown)(type, props, key);
  }
  return { $$typeof: REACT_ELEMENT, type, key: key === undefined ? null : `${key as string}`, ref: null, props, _owner: null };
}

/** React's jsxs differs from jsx only in its development build (which checks that static children have keys). */
export const jsxs = jsx;

export { Fragment };
