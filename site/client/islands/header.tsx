/**
 * The header island's hydration, in its own chunk with React: the runtime
 * loads it on the reader's first interaction (runtime/wake.ts), so a page
 * that is only read never downloads or runs React.
 */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Header } from '../../islands/Header.tsx';
import type { HeaderProps, HeaderRuntime } from '../../islands/types.ts';

export function hydrateHeader(header: HTMLElement, props: HeaderProps, runtime: HeaderRuntime): void {
  // As a transition, hydration yields to the browser every few milliseconds instead of
  // holding the main thread; a click on a part not yet hydrated hydrates it first.
  startTransition(() => {
    hydrateRoot(header, <Header {...props} runtime={runtime} />);
  });
}
