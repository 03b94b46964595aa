/**
 * The category menu (SPEC section 2): a "Categories" dropdown on wide
 * screens; at 576 px or less the same button opens a popover holding the
 * menu inline. Each category lists its subcategories and a "More" link.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HeaderStrings, MenuCategory } from './types.ts';
import { format } from './types.ts';

export function CategoryMenu({ menu, strings }: { menu: MenuCategory[]; strings: HeaderStrings }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
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

  return (
    <div className="category-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={open ? strings.menuClose : strings.menuOpen}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="menu-icon" aria-hidden="true" />
        <span className="menu-button-text">{strings.menuCategories}</span>
      </button>
      <nav id={panelId} className="menu-panel" hidden={!open} aria-label={strings.menuLabel} onClick={(event) => {
        if ((event.target as HTMLElement).closest('a')) close(false);
      }}>
        <ul className="menu-categories">
          {menu.map((category) => (
            <li key={category.key} className="menu-category">
              <a className="menu-category-title" href={category.href}>{category.title}</a>
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
