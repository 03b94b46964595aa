/**
 * The data every page shares (category menu, header strings, site
 * settings): emitted once as a content-hashed static query file, never
 * copied into each page's data. No header and footer slices: nothing read
 * /slice-data/ (the footer is in every page), so the build writes none.
 */
import type { HeaderProps, StaticQueryData } from '../islands/types.ts';
import type { SiteModel } from '../model/siteModel.ts';
import { urls } from '../model/urls.ts';
import { hexDigest } from '../../shared/digest.ts';

/** The hash in the static query file's name and the build's compilation hash: 16 hex characters, as always published. */
export function shortHash(text: string): string {
  return hexDigest([text], 16);
}

export function headerProps(model: SiteModel, searchIndex: string): HeaderProps {
  const { t, pick } = model.translator;
  const { settings, categories } = model.content;
  return {
    title: settings.title,
    logo: urls.logo(settings.brand),
    searchIndex,
    menu: categories.map((category) => ({
      key: category.key,
      title: pick(category.title),
      href: urls.category(category.slug),
      children: category.children.map((child) => ({ title: pick(child.title), href: urls.subcategory(category.slug, child.slug) })),
    })),
    strings: {
      home: t('header.home', { title: settings.title }),
      menuCategories: t('menu.categories'),
      menuOpen: t('menu.open'),
      menuClose: t('menu.close'),
      menuMore: t('menu.more'),
      menuMoreIn: t('menu.moreIn'),
      menuLabel: t('menu.label'),
      searchPlaceholder: t('search.placeholder'),
      searchLabel: t('search.label'),
      searchHint: t('search.hint'),
      searchEmpty: t('search.empty'),
      searchEmptyAlt: t('search.emptyAlt'),
      searchResults: t('search.results'),
      // Exactly one result, in the locale's singular form where it has one ("1 result").
      searchResultsOne: t('search.results', { count: 1 }),
      searchLoading: t('search.loading'),
      searchOpensInNewTab: t('link.opensInNewTab'),
      searchError: t('search.error'),
      searchMore: t('search.more'),
    },
  };
}

export function staticQueryData(model: SiteModel, header: HeaderProps): StaticQueryData {
  const { t } = model.translator;
  return {
    header,
    copy: { copied: t('article.copied'), copyLink: t('article.copyLink'), prompt: t('article.copyPrompt') },
    nav: { announce: t('nav.announce'), slow: t('nav.slow'), offline: t('nav.offline') },
  };
}
