import { useSite } from './SiteContext.tsx';

/** A topic's article count beside its name: the number is what a reader sees, "2 articles" what a screen reader says. */
export function TopicCount({ count }: { count: number | undefined }) {
  const { t } = useSite();
  if (count === undefined) return null;
  return (
    <>
      <span className="topic-count" aria-hidden="true">
        {count}
      </span>
      <span className="visually-hidden">{t('category.count', { count })}</span>
    </>
  );
}
