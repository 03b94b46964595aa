/**
 * The JSX runtime of felt's Node bundle (scripts/compile.mjs resolves
 * `react/jsx-runtime` to this file for felt's own sources; the browser's
 * bundle keeps React's). With React's production build, an element is made
 * as the object React's production `jsx()` returns, without copying its
 * props: the object the compiler wrote at the call site is already new,
 * holds no `key` (passed on its own) and is never changed afterwards. This
 * is what Babel's transform-react-inline-elements did for React's production
 * builds.
 *
 * React's `jsx()` copies every prop through a for-in loop with an own-
 * property test, for each of about 170 elements a page (193,590 in a cold
 * build of the bench's 1,000 articles with one render thread): the largest
 * single part of React's time in a 10,000-article build's CPU profile
 * (issue #13). Anything the copy would change goes to React's function as
 * before: a `key` or `ref` among the props (a spread), and a component with
 * defaultProps. The shape below is React 18's production element (package.json
 * pins react 18.3.1; React 19's elements differ), and
 * tests/site/jsxRuntime.test.ts checks that each element, and the pages
 * rendered from them, are React's own.
 *
 * Under any other NODE_ENV (bin/felt.js sets "production" only when none is
 * set), React loads its development build, whose elements carry what its
 * checks read (a list's missing keys, for one): React's own functions then.
 */
import { Fragment, jsx as reactJsx, jsxs as reactJsxs } from 'react/jsx-runtime';

const REACT_ELEMENT = Symbol.for('react.element');

type Props = Record<string, unknown>;
type Jsx = (type: unknown, props: Props, key?: unknown) => unknown;

/** React 18's production element for a call of `jsx()`, with the props object given. */
export function elementWithoutCopy(type: unknown, props: Props, key?: unknown): unknown {
  if (props.key !== undefined || props.ref !== undefined || (type as { defaultProps?: unknown } | null)?.defaultProps) {
    return (reactJsx as Jsx)(type, props, key);
  }
  return { $$typeof: REACT_ELEMENT, type, key: key === undefined ? null : `${key as string}`, ref: null, props, _owner: null };
}

// The test React's own index.js makes to choose its build, on the same variable, when it is first loaded.
const production = process.env.NODE_ENV === 'production';

export const jsx: Jsx = production ? elementWithoutCopy : (reactJsx as Jsx);
/** React's jsxs differs from jsx only in its development build (which checks that static children have keys). */
export const jsxs: Jsx = production ? elementWithoutCopy : (reactJsxs as Jsx);

export { Fragment };
