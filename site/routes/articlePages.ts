/**
 * Article pages, the bulk of a site: one per article. Each comes as an entry
 * that knows the digest of what its page is made from before the page is
 * made. A rebuild compares that digest with the previous build's and skips
 * making, keying and rendering the specs of articles nothing touched, which
 * at 10,000 articles is most of the work of finding what changed.
 *
 * articleDraft() must read only what articleInputs() covers: the article's
 * file, the files of its related articles and translations, and the
 * build-wide inputs (authors and ads here; settings, categories and UI
 * strings through the template key in build.ts). tests/site/incremental.test.ts
 * checks rebuilds against cold builds after each kind of change.
 */
import { contentLangTag } from '../i18n/translator.ts';
import type { Article } from '../../shared/types.ts';
import { displayName, plainName } from '../../shared/names.ts';
import type { Crumb } from '../components/Breadcrumbs.tsx';
import { relatedArticles, relatedIds, type SiteModel } from '../model/siteModel.ts';
import type { Placement } from '../model/categoryIndex.ts';
import { urls } from '../model/urls.ts';
import type { ArticleProps, PageSpec } from '../pages/types.ts';
import { digest } from '../../shared/digest.ts';
import { articleOwner, home, type Draft, type Owner } from './routeParts.ts';
import { absoluteUrl, localeSiteUrl } from '../render/seo.ts';
import { articleShareCard } from '../pictures/shareCards.ts';

export interface ArticleEntry {
  readonly path: string;
  readonly kind: 'article';
  readonly owner: Owner;
  /** Digest of everything the page is made from. */
  readonly inputs: string;
  /** For sitemap.xml, without making the page. */
  readonly lastmod: string;
  spec(): PageSpec;
}

/** What every article entry of one build shares. */
interface ArticleContext {
  model: SiteModel;
  inputsOf: (article: Article) => string;
  sponsor: (draft: Draft) => PageSpec;
  bylines: Map<string, ArticleProps['author']>;
}

/**
 * One article's page before it is made. A class, and its owner and inputs
 * worked out on first read: the route check (collisions.ts) walks 100,000 of
 * these for their paths alone, and the build reads the inputs of each once.
 */
class ArticlePageEntry implements ArticleEntry {
  readonly kind = 'article';
  readonly path: string;
  #owner: Owner | undefined;
  #inputs: string | undefined;

  constructor(
    private readonly context: ArticleContext,
    private readonly article: Article,
  ) {
    this.path = urls.article(article.slug);
  }

  get owner(): Owner {
    return (this.#owner ??= articleOwner(this.article));
  }

  get inputs(): string {
    return (this.#inputs ??= this.context.inputsOf(this.article));
  }

  get lastmod(): string {
    return this.article.updated ?? this.article.date;
  }

  spec(): PageSpec {
    const { model, sponsor, bylines } = this.context;
    return sponsor(articleDraft(model, this.article, bylines));
  }
}

export function* articleEntries(model: SiteModel, sponsor: (draft: Draft) => PageSpec): Generator<ArticleEntry> {
  // One byline object per author, shared by their articles' specs: the page keyer hashes it once (pageKey.ts).
  const context: ArticleContext = { model, inputsOf: articleInputs(model), sponsor, bylines: new Map() };
  for (const article of model.articles) yield new ArticlePageEntry(context, article);
}

/**
 * The digest of an article page's inputs: the build-wide content it reads
 * besides articles (authors for bylines and slugs, ads), the article as its
 * card token (file, provider picture, draft mark), its related articles' card
 * tokens, and its translations.
 */
function articleInputs(model: SiteModel): (article: Article) => string {
  const shared = buildWideInputs(model);
  const tokens = cardTokens(model);
  return (article) => {
    let text = shared + tokens.get(article.id);
    for (const id of relatedIds(model, article)) text += tokens.get(id);
    if (article.translationKey) text += JSON.stringify(model.translations.get(article.translationKey) ?? []);
    return digest(text);
  };
}

const buildWide = new WeakMap<SiteModel, string>();

/**
 * What every page with inputs reads besides its own articles and the template key: authors (bylines, slugs),
 * ads (sponsored links) and the content locale. Digested once per build.
 */
export function buildWideInputs(model: SiteModel): string {
  let shared = buildWide.get(model);
  if (shared === undefined) buildWide.set(model, (shared = digest(JSON.stringify([model.content.authors, model.content.ads, model.locale]))));
  return shared;
}

const tokensByModel = new WeakMap<SiteModel, CardTokens>();

export interface CardTokens {
  get(id: string): string;
}

/**
 * Tokens remembered at most: a page's inputs read its own article's and its neighbours' (its related articles, a
 * listing page's sixteen), made near one another in the build's walk. Kept for every article, they were 101 B an
 * article on the build's heap (a heap snapshot at 50,000); one made again costs a Map lookup and a short string.
 */
const TOKENS_REMEMBERED = 8192;

/**
 * Every article's card token, by id: what a page that shows the article reads of it, on its own page or as a card (a
 * listing's, a related article's): its file (which makes its summary with the template and authors), its provider
 * picture (the cover and its alt text) or its drawn cover, and its draft mark. A body edit changes it too: the page's spec is then made
 * and keyed, and rendered only if its key changed (build.ts). Each is made when first asked for and remembered a
 * while: a full rebuild reads each token several times (its page, its neighbours' related cards, its listings), 1.2
 * million reads at 100,000, and a rebuild after additions only (build/additions.ts) reads the few hundred its pages show.
 */
export function cardTokens(model: SiteModel): CardTokens {
  let tokens = tokensByModel.get(model);
  if (!tokens) {
    const made = new Map<string, string>();
    tokens = {
      get(id) {
        let token = made.get(id);
        if (token === undefined) {
          if (made.size >= TOKENS_REMEMBERED) made.clear();
          made.set(id, (token = cardToken(model, model.byId.get(id)!)));
        }
        return token;
      },
    };
    tokensByModel.set(model, tokens);
  }
  return tokens;
}

/**
 * The first 64 bits of a file's digest stand for the file (a digest of all it holds, its slug included): a listing
 * page's inputs name up to sixteen articles, and the whole digest made them most of the text a rebuild hashed.
 */
function cardToken(model: SiteModel, article: Article): string {
  const picture = model.pictures.get(article.slug);
  // A drawn cover is the article's by its place in its subcategory (drawnCovers.ts), which its file does not hold.
  return `\n${article.digest.slice(0, 16)}${picture ? `+${picture.digest}` : model.coverOf(article).path}${article.draft ?? ''}`;
}

/** An article's page as a draft: reads the article, its placement, author, translations and related articles, and nothing else. */
function articleDraft(model: SiteModel, article: Article, bylines: Map<string, ArticleProps['author']>): Draft {
  const { t, pick } = model.translator;
  const { settings } = model.content;
  const path = urls.article(article.slug);
  const placement = model.index.placementsOf(article)[0];
  const author = model.authorByName.get(article.author)!;
  let byline = bylines.get(author.name);
  if (!byline) bylines.set(author.name, (byline = { name: author.name, slug: author.slug, bio: author.description }));
  const trail: Crumb[] = [home(model)];
  if (placement) {
    trail.push({ name: plainName(pick(placement.category.title)), href: urls.category(placement.category.slug) });
    trail.push({ name: plainName(pick(placement.subcategory.title)), href: urls.subcategory(placement.category.slug, placement.subcategory.slug) });
  }
  trail.push({ name: article.title, href: path });
  // Topics are names from the frontmatter, shown by SPEC section 5's display rules: a subcategory the
  // categories do not know (the article is filed under "other": "recordKeeping" → "Record Keeping"), then the subsubcategories.
  const lang = article.locale.slice(0, 2);
  const topicsOf = (p: Placement) => [...(p.unknownSubcategory ? [p.unknownSubcategory] : []), ...p.subsubcategories];
  const tags = [...new Set(model.index.placementsOf(article).flatMap((p) => topicsOf(p).map((topic) => displayName(topic, lang))))];
  const group = article.translationKey ? (model.translations.get(article.translationKey) ?? []) : [];
  // An article that is not its locale's member of the group (a second one with the key) links to no translation.
  const siblings = group.some((member) => member.locale === article.locale && member.slug === article.slug) ? group : [];
  const others = siblings.filter((s) => s.locale !== model.locale);
  const coverAlt = t('article.coverAlt', { title: article.title });
  const card = articleShareCard(article.slug, placement, settings.brand, model.pictures.has(article.slug)).path;
  const alternates = others.length
    ? siblings.map((s) => ({ hreflang: contentLangTag(s.locale), href: `${localeSiteUrl(settings, s.locale)}${urls.article(s.slug)}` }))
    : [];
  return {
    kind: 'article',
    path,
    head: {
      title: `${article.title} | ${settings.title}`,
      description: article.description,
      canonical: path,
      ogType: 'article',
      published: article.date,
      modified: article.updated,
      author: author.name,
      image: { path: card, alt: coverAlt },
      structuredData: [
        {
          type: 'article',
          article: {
            path,
            title: article.title,
            description: article.description,
            date: article.date,
            updated: article.updated,
            author: { name: author.name, slug: author.slug },
            locale: article.locale,
            section: placement ? plainName(pick(placement.category.title)) : undefined,
            keywords: tags,
            words: article.words,
            image: card,
          },
        },
        { type: 'breadcrumbs', trail },
      ],
      alternates,
    },
    props: {
      slug: article.slug,
      title: article.title,
      description: article.description,
      source: article.source,
      digest: article.digest,
      // The generated illustration says nothing the title beside it does not: it is decorative, alt="".
      coverAlt: model.pictures.has(article.slug) ? coverAlt : '',
      ...(model.pictures.has(article.slug) ? {} : { cover: model.coverOf(article).path }),
      date: article.date,
      updated: article.updated,
      words: article.words,
      author: byline,
      trail,
      tags,
      related: relatedArticles(model, article),
      translations: others.map((s) => ({ ...s, href: `${localeSiteUrl(settings, s.locale)}${urls.article(s.slug)}`, label: t(`language.${s.locale}`) })),
      pageUrl: absoluteUrl(settings, path),
      ...(article.draft ? { draft: article.draft } : {}),
    },
  };
}
