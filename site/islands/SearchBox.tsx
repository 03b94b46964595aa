/**
 * The header search box (SPEC section 2). The input is server-rendered; the
 * search code and its index are loaded only when the box is first used.
 */
import { useId, useState } from 'react';
import type { HeaderStrings } from './types.ts';

export function SearchBox({ strings }: { strings: HeaderStrings; searchIndex: string }) {
  const [query, setQuery] = useState('');
  const inputId = useId();
  return (
    <form className="search" role="search" onSubmit={(event) => event.preventDefault()}>
      <label className="visually-hidden" htmlFor={inputId}>{strings.searchLabel}</label>
      <input
        id={inputId}
        className="search-input"
        type="search"
        placeholder={strings.searchPlaceholder}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
    </form>
  );
}
