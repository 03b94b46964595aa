/**
 * The category menu (SPEC section 2): a "Categories" dropdown on wide
 * screens; at 576 px or less the same button opens a popover holding the
 * menu inline (the stylesheet places it). A disclosure: the button carries
 * aria-expanded and aria-controls, the panel is a labelled nav of links.
 * Keyboard: Enter, Space or ArrowDown open it on the first link, ArrowUp on
 * the last; arrows, Home and End move; Escape closes it and returns focus.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { HeaderStrings, MenuCategory } from './types.ts';
import { format } from './types.ts';

type FocusTarget = 'first' | 'last' | null;

export function CategoryMenu({ menu, strings }: { menu: MenuCategory[]; strings: HeaderStrings }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const focusOnOpen = useRef<FocusTarget>(null);

  const links = () => [...(panelRef.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? [])];

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const openAt = (target: FocusTarget) => {
    focusOnOpen.current = target;
    setOpen(true);
  };

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

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
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

  return (
    <div
      className="category-menu"
      ref={rootRef}
      onBlur={(event) => {
        if (open && event.relatedTarget && !rootRef.current?.contains(event.relatedTarget as Node)) close(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onKeyDown={onButtonKey}
        onClick={(event) => {
          // A click from Enter or Space (detail 0) opens on the first link, as the keyboard expects.
          if (open) close(false);
          else openAt(event.detail === 0 ? 'first' : null);
        }}
      >
        <span className="menu-icon" aria-hidden="true" />
        <span className="menu-button-text">{strings.menuCategories}</span>
      </button>
      <nav
        id={panelId}
        ref={panelRef}
        className="menu-panel"
        hidden={!open}
        aria-label={strings.menuLabel}
        onKeyDown={onPanelKey}
        onClick={(event) => {
          // Choosing an item navigates (the router takes the click) and closes the menu.
          if ((event.target as HTMLElement).closest('a')) close(false);
        }}
      >
        <ul className="menu-categories">
          {menu.map((category) => (
            <li key={category.key} className="menu-category">
              <a className="menu-category-title" href={category.href}>
                {category.title}
              </a>
              <ul className="menu-children">
                {category.children.map((child) => (
                  <li key={child.href}>
                    <a href={child.href}>{child.title}</a>
                  </li>
                ))}
                <li>
                  <a className="menu-more" href={category.href} aria-label={format(strings.menuMoreIn, { category: category.title })}>
                    {strings.menuMore} →
                  </a>
                </li>
              </ul>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
