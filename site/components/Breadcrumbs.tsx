import { useSite } from './SiteContext.tsx';

export interface Crumb {
  name: string;
  href: string;
}

/** The trail above a page's heading; the last crumb is the current page. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
  const { t } = useSite();
  return (
    <nav className="breadcrumbs" aria-label={t('breadcrumbs.label')}>
      <ol>
        {trail.map((crumb, i) => (
          <li key={crumb.href}>{i === trail.length - 1 ? <span aria-current="page">{crumb.name}</span> : <a href={crumb.href}>{crumb.name}</a>}</li>
        ))}
      </ol>
    </nav>
  );
}
