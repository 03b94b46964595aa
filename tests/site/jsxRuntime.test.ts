/**
 * Issue 13: felt's Node bundle makes its React elements with its own JSX
 * runtime (site/render/jsxRuntime.ts), which does not copy their props. Each
 * element must be the one React's production runtime makes from the same
 * call, and render to the same HTML; what the copy would change (a key or a
 * ref among the props, defaultProps) is React's to make. The compiled CLI
 * must use it for felt's components, and React's own runtime underneath.
 * Under a NODE_ENV other than production React loads its development build,
 * whose checks read what these elements lack: the runtime is React's then.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, forwardRef, memo, type FunctionComponent } from 'react';
import { renderToString } from 'react-dom/server';
import * as react from 'react/jsx-runtime';
import { describe, expect, it } from 'vitest';
import * as own from '../../site/render/jsxRuntime.ts';
import { cleanEnv, runFelt } from '../support/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Jsx = (type: unknown, props: Record<string, unknown>, key?: unknown) => unknown;
const ownJsx = own.elementWithoutCopy as Jsx;
const reactJsx = react.jsx as unknown as Jsx;
// Tests run with NODE_ENV=test, where react/jsx-runtime is React's development build (its elements carry debugging
// fields); felt builds with the production build, whose elements the runtime makes.
const productionJsx = (createRequire(import.meta.url)(path.join(ROOT, 'node_modules/react/cjs/react-jsx-runtime.production.min.js')) as { jsx: Jsx }).jsx;

const Card: FunctionComponent<{ title: string; children?: unknown }> = ({ title, children }) =>
  reactJsx('article', { className: 'card', children: [reactJsx('h2', { children: title }), children] }) as never;
const WithDefaults = Object.assign(({ label }: { label: string }) => reactJsx('span', { children: label }) as never, { defaultProps: { label: 'default' } });
const Memoised = memo(Card);
const Forwarded = forwardRef<HTMLSpanElement, { text: string }>(({ text }, ref) => reactJsx('span', { ref, children: text }) as never);
const Context = createContext('outside');
const consume = (value: string) => value;
const callbackRef = () => undefined;

/** A call a component's compiled JSX makes: type, props (a fresh object each time), key. */
type Call = [unknown, () => Record<string, unknown>, unknown?];
const CALLS: Call[] = [
  ['div', () => ({})],
  ['a', () => ({ href: '/x', className: 'link', children: 'text' })],
  ['ul', () => ({ children: [1, 2, 3].map((n) => reactJsx('li', { children: n }, n)) })],
  ['li', () => ({ children: 'keyed' }), 'k'],
  ['li', () => ({ children: 'keyed by number' }), 7],
  ['input', () => ({ type: 'search', value: '', autoComplete: 'off', spellCheck: false })],
  ['div', () => ({ dangerouslySetInnerHTML: { __html: '<p>html</p>' } })],
  [Card, () => ({ title: 'A <title> & more', children: reactJsx('p', { children: 'body' }) })],
  [react.Fragment, () => ({ children: ['a', reactJsx('b', { children: 'c' })] })],
  [Memoised, () => ({ title: 'memo' })],
  [Context.Provider, () => ({ value: 'inside', children: reactJsx(Context.Consumer, { children: consume }) })],
];
/** Left to React's runtime: a key or ref among the props (a spread), and defaultProps. */
const LEFT_TO_REACT: Call[] = [
  ['div', () => ({ key: 'from a spread', id: 'x' })],
  [Forwarded, () => ({ text: 'forwarded', ref: callbackRef })],
  [WithDefaults, () => ({})],
  [WithDefaults, () => ({ label: 'given' })],
];

describe('felt’s JSX runtime', () => {
  it('makes the element React’s production runtime makes from the same call', () => {
    for (const [type, props, key] of CALLS) expect(ownJsx(type, props(), key)).toStrictEqual(productionJsx(type, props(), key));
  });

  it('leaves to React’s runtime the calls whose props it would change', () => {
    for (const [type, props, key] of LEFT_TO_REACT) {
      expect(ownJsx(type, props(), key)).toStrictEqual(reactJsx(type, props(), key));
    }
  });

  it('renders the same HTML', () => {
    for (const [type, props, key] of [...CALLS, ...LEFT_TO_REACT]) {
      const tree = (jsx: Jsx) => jsx('main', { children: [jsx(type, props(), key), jsx('footer', { children: 'end' })] });
      expect(renderToString(tree(ownJsx) as never)).toBe(renderToString(tree(reactJsx) as never));
    }
  });

  it('is in the compiled CLI, with React’s own runtime underneath', async () => {
    // Nothing of felt's imports the file by its path: it is in the bundle because compile.mjs resolves felt's
    // components' `react/jsx-runtime` to it (esbuild leaves out a module nothing imports).
    const chunks = path.join(ROOT, 'lib', 'chunks');
    const sources = await Promise.all((await readdir(chunks)).filter((f) => f.endsWith('.js')).map((f) => readFile(path.join(chunks, f), 'utf8')));
    const runtime = sources.filter((s) => s.includes('// site/render/jsxRuntime.ts'));
    expect(runtime).toHaveLength(1);
    expect(runtime[0]).toMatch(/__require\("react\/jsx-runtime"\)/);
    expect(sources.filter((s) => s.includes('__require("react/jsx-runtime")'))).toHaveLength(1);
  });

  it('is React’s own under any NODE_ENV but production, where React’s development build checks its elements', () => {
    expect(process.env.NODE_ENV).not.toBe('production');
    expect(own.jsx).toBe(react.jsx);
    expect(own.jsxs).toBe(react.jsxs);
  });

  it('builds the same pages with React’s development build as with its production build, with no warning', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'felt-jsx-'));
    try {
      const build = (env: NodeJS.ProcessEnv, out: string) =>
        runFelt(['build', '--content', path.join(ROOT, 'content'), '--out', path.join(folder, out)], { env: cleanEnv(env), timeoutMs: 120_000 });
      const production = await build({}, 'production');
      const development = await build({ NODE_ENV: 'development' }, 'development');
      expect(production.code, production.stderr).toBe(0);
      expect(development.code, development.stderr).toBe(0);
      // React's development build warns on stderr about what its checks find (a list's child without a key).
      expect(development.stderr).not.toMatch(/Warning:/);
      const pages = (await readdir(path.join(folder, 'production'), { recursive: true })).filter((f) => f.endsWith('.html'));
      expect(pages.length).toBeGreaterThan(100);
      for (const page of pages) {
        expect(await readFile(path.join(folder, 'development', page), 'utf8'), page).toBe(await readFile(path.join(folder, 'production', page), 'utf8'));
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
