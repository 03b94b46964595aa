import { ArticleCard } from '../components/ArticleCard.tsx';
import { useSite } from '../components/SiteContext.tsx';
import type { ArticleSummary } from '../model/summaries.ts';
import type { HomeProps } from './types.ts';
import { Decorated } from '../islands/Decorated.tsx';

/** The home page: its sections and their sizes come from site settings (SPEC section 9). */
export function HomePage({ lead, best, updated, categories }: HomeProps) {
  const { t, pick, settings } = useSite();
  const [first, ...rest] = lead;
  return (
    <>
      <div className="home-intro">
        <h1 className="home-heading">{t('home.heading')}</h1>
        <p className="home-tagline">{pick(settings.tagline)}</p>
      </div>
      <section className="home-section home-lead" aria-labelledby="home-lead">
        <h2 id="home-lead" className="section-heading">
          {t('home.moreAwesomeStuff')}
        </h2>
        <div className="lead-grid">
          {first && <ArticleCard article={first} size="lead" cover="high" />}
          <div className="lead-rest">
            {rest.map((article) => (
              <ArticleCard key={article.slug} article={article} size="compact" />
            ))}
          </div>
        </div>
      </section>
      <CardSection id="home-best" heading={t('home.ourBestStories')} articles={best} />
      <CardSection id="home-updated" heading={t('home.updatedArticles')} articles={updated} size="compact" grid="card-grid card-grid-4" dated="updated" />
      <section className="home-section" aria-labelledby="home-categories">
        <h2 id="home-categories" className="section-heading">
          {t('home.categories')}
        </h2>
        <div className="category-tiles">
          {categories.map((category) => (
            <section key={category.href} className="category-tile" aria-labelledby={`tile-${category.href.slice(1)}`}>
              <h3 id={`tile-${category.href.slice(1)}`} className="tile-title">
                <a href={category.href}>
                  <Decorated text={category.title} />
                </a>
              </h3>
              <p className="tile-description">
                <Decorated text={category.description ?? ''} />
              </p>
              <ul className="tile-articles">
                {category.articles.map((article) => (
                  <li key={article.slug}>
                    <a href={`/articles/${article.slug}`}>{article.title}</a>
                  </li>
                ))}
              </ul>
              <a className="tile-more" href={category.href}>
                <Decorated text={t('home.allInCategory', { category: category.title })} /> →
              </a>
            </section>
          ))}
        </div>
      </section>
    </>
  );
}

/** A titled grid of article cards; nothing at all when there are no articles. */
function CardSection({
  id,
  heading,
  articles,
  size = 'normal',
  grid = 'card-grid',
  dated = 'published',
}: {
  id: string;
  heading: string;
  articles: ArticleSummary[];
  size?: 'normal' | 'compact';
  grid?: string;
  dated?: 'published' | 'updated';
}) {
  if (articles.length === 0) return null;
  return (
    <section className="home-section" aria-labelledby={id}>
      <h2 id={id} className="section-heading">
        {heading}
      </h2>
      <div className={grid}>
        {articles.map((article) => (
          <ArticleCard key={article.slug} article={article} size={size} dated={dated} />
        ))}
      </div>
    </section>
  );
}
