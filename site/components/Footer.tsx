/** The footer of every page (SPEC section 2, "Footer"). Static: never hydrated. */
import { urls } from '../model/urls.ts';
import { useSite } from './SiteContext.tsx';
import { Decorated } from '../islands/Decorated.tsx';

export function Footer({ year }: { year: number }) {
  const { t, pick, settings, categories } = useSite();
  const info = [
    { href: urls.privacy(), label: t('footer.privacy') },
    { href: urls.terms(), label: t('footer.terms') },
    { href: urls.about(), label: t('footer.about') },
    { href: urls.authors(), label: t('footer.authors') },
    { href: urls.sitemap(), label: t('footer.sitemap') },
    { href: urls.sitemapXml(), label: t('footer.sitemapXml') },
  ];
  const social = [
    { href: settings.social.video, label: t('footer.video'), icon: '▶' },
    { href: settings.social.social, label: t('footer.social'), icon: '✦' },
    { href: settings.social.photo, label: t('footer.photo'), icon: '◉' },
  ];
  return (
    <div className="footer-inner">
      {/* Not "Categories": the header's menu is the navigation landmark of that name. */}
      <nav className="footer-column" aria-label={t('footer.categoriesNav')}>
        <h2 id="footer-categories" className="footer-heading">
          {t('footer.categories')}
        </h2>
        <ul>
          {categories.map((category) => (
            <li key={category.key}>
              <a href={urls.category(category.slug)}>
                <Decorated text={pick(category.title)} />
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <nav className="footer-column" aria-labelledby="footer-info">
        <h2 id="footer-info" className="footer-heading">
          {t('footer.info')}
        </h2>
        <ul>
          {info.map((link) => (
            <li key={link.href}>
              <a href={link.href}>{link.label}</a>
            </li>
          ))}
          <li>
            <a href={urls.feed()}>{t('footer.rss')}</a>
          </li>
        </ul>
      </nav>
      <div className="footer-column">
        <h2 className="footer-heading">{t('footer.follow')}</h2>
        <ul className="social">
          {social.map((link) => (
            <li key={link.href}>
              <a href={link.href} rel="me noopener" target="_blank">
                <span aria-hidden="true" className="social-icon">
                  {link.icon}
                </span>{' '}
                {link.label}
                {/* A screen reader hears that the link leaves this tab, as a sighted reader sees the new tab open. */}
                <span className="visually-hidden"> ({t('link.opensInNewTab')})</span>
              </a>
            </li>
          ))}
          <li>
            <a href={`mailto:${settings.email}`}>{t('footer.mail', { email: settings.email })}</a>
          </li>
        </ul>
      </div>
      <p className="footer-responsible">{t('footer.responsible')}</p>
      <p className="copyright">{t('footer.copyright', { year, title: settings.title })}</p>
    </div>
  );
}
