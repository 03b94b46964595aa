/**
 * The category menu (SPEC section 2): a "Categories" dropdown on wide
 * screens; at 576 px or less the same button opens a popover holding the
 * menu inline (the stylesheet places it). A <details> disclosure, so the menu
 * opens before hydration, with JavaScript off, and when the shared header
 * data fails to load and nothing hydrates (issue 18, item 5); once hydrated,
 * React follows its open state (the toggle event) and adds the keyboard:
 * Enter, Space or ArrowDown open it on the first link, ArrowUp on the last;
 * arrows, Home and End move; Escape closes it and returns focus.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { HeaderStrings, MenuCategory } from './types.ts';
import { format } from './types.ts';
import { plainName } from '../../shared/names.ts';
import { Decorated } from './Decorated.tsx';

type FocusTarget = 'first' | 'last' | null;

export function CategoryMenu({ menu, strings }: { menu: MenuCategory[]; strings: HeaderStrings }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLElement>(null);
  const rootRef = useRef<HTMLDetailsElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const focusOnOpen = useRef<FocusTarget>(null);

  const links = () => [...(panelRef.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? [])];

  const setDetailsOpen = (value: boolean) => {
    if (rootRef.current) rootRef.current.open = value;
  };

  const close = useCallback((returnFocus: boolean) => {
    setDetailsOpen(false);
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const openAt = (target: FocusTarget) => {
    if (rootRef.current?.open) {
      const list = links();
      (target === 'first' ? list[0] : list[list.length - 1])?.focus();
      return;
    }
    focusOnOpen.current = target;
    setDetailsOpen(true);
  };

  // Opened before hydration (a tap, JavaScript still loading): carry on from there.
  useEffect(() => {
    if (rootRef.current?.open) setOpen(true);
  }, []);

  useEffect(() => {
    if (!open) return;
    const list = links();
    if (focusOnOpen.current) (focusOnOpen.current === 'first' ? list[0] : list[list.length - 1])?.focus();
    focusOnOpen.current = null;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') close(rootRef.current?.contains(document.activeElement) ?? false);
    };
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close]);

  const onButtonKey = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onPanelKey = (event: KeyboardEvent<HTMLElement>) => {
    const list = links();
    const at = list.indexOf(document.activeElement as HTMLAnchorElement);
    const move: Record<string, number | undefined> = {
      ArrowDown: (at + 1) % list.length,
      ArrowRight: (at + 1) % list.length,
      ArrowUp: (at - 1 + list.length) % list.length,
      ArrowLeft: (at - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    const next = move[event.key];
    if (next === undefined || list.length === 0) return;
    event.preventDefault();
    list[next]?.focus();
  };

  // Choosing an item navigates (the router takes the click) and closes the menu.
  const onPanelClick = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a')) close(false);
  };

  return (
    <details
      className="category-menu"
      ref={rootRef}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onBlur={(event) => {
        if (open && event.relatedTarget && !rootRef.current?.contains(event.relatedTarget as Node)) close(false);
      }}
    >
      <summary
        ref={buttonRef}
        className="menu-button"
        onKeyDown={onButtonKey}
        onClick={(event) => {
          // Hydrated, the click opens and closes the <details> itself, so the state (and the
          // Escape listener) follow at once rather than on the later toggle event. A click from
          // Enter or Space (detail 0) opens on the first link, as the keyboard expects.
          event.preventDefault();
          if (rootRef.current?.open) close(false);
          else {
            focusOnOpen.current = event.detail === 0 ? 'first' : null;
            setDetailsOpen(true);
            setOpen(true);
          }
        }}
      >
        <span className="menu-icon" aria-hidden="true" />
        <span className="menu-button-text">{strings.menuCategories}</span>
      </summary>
      <nav ref={panelRef} className="menu-panel" aria-label={strings.menuLabel} onKeyDown={onPanelKey} onClick={onPanelClick}>
        <ul className="menu-categories">
          {menu.map((category) => (
            <li key={category.key} className="menu-category">
              <a className="menu-category-title" href={category.href}>
                <Decorated text={category.title} />
              </a>
              <ul className="menu-children">
                {category.children.map((child) => (
                  <li key={child.href}>
                    <a href={child.href}>
                      <Decorated text={child.title} />
                    </a>
                  </li>
                ))}
                <li>
                  <a className="menu-more" href={category.href} aria-label={format(strings.menuMoreIn, { category: plainName(category.title) })}>
                    {strings.menuMore} →
                  </a>
                </li>
              </ul>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}
