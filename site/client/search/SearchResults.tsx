/**
 * The result list under the search box: grouped by category, then
 * subcategory, in menu order; newest first inside a group. Each result
 * opens its article in a new tab. Nothing found: the empty-state picture.
 */
import type { KeyboardEvent } from 'react';
import type { SearchHit, SearchResultsProps } from '../../islands/search/types.ts';
import type { MenuCategory } from '../../islands/types.ts';
import { format } from '../../islands/types.ts';
import { EmptyTable } from './EmptyTable.tsx';
import { plainName } from '../../../shared/names.ts';
import { Decorated } from '../../islands/Decorated.tsx';

interface Group {
  key: string;
  title: string;
  subgroups: { key: string; title: string; hits: SearchHit[] }[];
}

export function groupHits(hits: SearchHit[], menu: MenuCategory[]): Group[] {
  const groups = new Map<number, Map<number, SearchHit[]>>();
  for (const hit of hits) {
    const byChild = groups.get(hit.category) ?? new Map<number, SearchHit[]>();
    groups.set(hit.category, byChild);
    const list = byChild.get(hit.subcategory) ?? [];
    byChild.set(hit.subcategory, list);
    list.push(hit);
  }
  const order = (a: number, b: number) => (a < 0 ? 1 : b < 0 ? -1 : a - b);
  return [...groups.keys()].sort(order).map((c) => {
    const category = menu[c];
    const byChild = groups.get(c)!;
    return {
      key: category?.key ?? `c${c}`,
      title: category?.title ?? '',
      subgroups: [...byChild.keys()].sort(order).map((s) => ({ key: `${c}-${s}`, title: category?.children[s]?.title ?? '', hits: byChild.get(s)! })),
    };
  });
}

function countText(count: number, more: boolean, strings: SearchResultsProps['strings']): string {
  if (count === 1 && !more) return strings.searchResultsOne;
  return format(strings.searchResults, { count: more ? `${count}+` : count });
}

export function SearchResults({ id, query, hits, more, loading, failed, menu, strings, onMore, onEscape, onBack }: SearchResultsProps) {
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const links = [...event.currentTarget.querySelectorAll<HTMLElement>('a[href], button')];
    const at = links.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      onEscape();
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && at >= 0) {
      event.preventDefault();
      if (event.key === 'ArrowUp' && at === 0) onBack();
      else links[Math.min(links.length - 1, event.key === 'ArrowDown' ? at + 1 : at - 1)]?.focus();
    }
  };
  const status = failed ? strings.searchError : loading && hits.length === 0 ? strings.searchLoading : countText(hits.length, more, strings);
  return (
    <div id={id} className="search-results" aria-label={strings.searchLabel} role="region" onKeyDown={onKey} aria-busy={loading}>
      <p className="search-status" role="status">
        {status}
      </p>
      {!loading && !failed && hits.length === 0 && (
        <div className="search-empty">
          <EmptyTable label={strings.searchEmptyAlt} />
          <p>{format(strings.searchEmpty, { query: query.trim() })}</p>
        </div>
      )}
      {groupHits(hits, menu).map((group) => (
        // A group, not a region: as landmarks the groups would repeat the names of the page's own category sections
        // (axe landmark-unique). Named groups, not headings: the results sit in the header, before the page's h1, and
        // headings there put an h2 and h3 ahead of it in the page's outline.
        <section key={group.key} className="search-group" role="group" aria-label={plainName(group.title)}>
          <p className="search-group-title" aria-hidden="true">
            <Decorated text={group.title} />
          </p>
          {group.subgroups.map((sub) => (
            <div key={sub.key} className="search-subgroup" role="group" aria-label={plainName(sub.title)}>
              <p className="search-subgroup-title" aria-hidden="true">
                <Decorated text={sub.title} />
              </p>
              <ul>
                {sub.hits.map((hit) => (
                  <li key={hit.slug}>
                    <a href={`/articles/${hit.slug}`} target="_blank" rel="noopener">
                      {hit.title}
                      <span className="visually-hidden"> ({strings.searchOpensInNewTab})</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ))}
      {more && (
        <button type="button" className="search-more" onClick={onMore} disabled={loading}>
          {strings.searchMore}
        </button>
      )}
    </div>
  );
}
