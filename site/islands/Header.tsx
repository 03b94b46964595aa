/**
 * The site header: logo, category menu and search box. Server-rendered into
 * every page with the same props, hydrated once in the browser, where the
 * runtime adds what cannot be JSON (the loader of the search chunk).
 */
import type { HeaderProps, HeaderRuntime } from './types.ts';
import { CategoryMenu } from './CategoryMenu.tsx';
import { SearchBox } from './SearchBox.tsx';

export function Header({ title, logo, menu, strings, searchIndex, runtime }: HeaderProps & { runtime?: HeaderRuntime }) {
  return (
    <div className="header-bar">
      <a className="logo" href="/" aria-label={strings.home}>
        <img src={logo} width={72} height={72} alt="" />
        <span className="logo-title">{title}</span>
      </a>
      <CategoryMenu menu={menu} strings={strings} />
      <SearchBox strings={strings} searchIndex={searchIndex} menu={menu} loadSearch={runtime?.loadSearch} />
    </div>
  );
}
