/**
 * Retracted articles (shared/retraction.ts) as the site reads them:
 * `content/retracted/{locale}/{slug}.json`, each validated like any content
 * file. A retraction wins over an article file of the same slug still lying
 * in content/articles (a pull interrupted between the two, a hand copy): the
 * article leaves the site, and with it the sitemap, the feeds, the search
 * index, every listing and every related-articles list.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../../shared/errors.ts';
import { readJsonFile } from '../../shared/json.ts';
import { LIMITS } from '../../shared/limits.ts';
import { displayPath } from '../../shared/paths.ts';
import { RETRACTED_PREFIX, retractionSchema, type Retraction } from '../../shared/retraction.ts';
import type { ContentLocale, SiteContent } from '../../shared/types.ts';

export async function loadRetractions(root: string, locale: ContentLocale, problems: Problem[]): Promise<Retraction[]> {
  const folder = path.join(root, RETRACTED_PREFIX, locale);
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  const found: Retraction[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const record = await readJsonFile(file, retractionSchema, problems, { root, maxBytes: LIMITS.retractionBytes });
    if (!record) continue;
    if (`${record.slug}.json` !== name || record.locale !== locale) {
      problems.push({ file: displayPath(file), severity: 'error', field: 'slug', message: `names ${record.locale}/${record.slug}, not the file's own place`, hint: `move it to ${RETRACTED_PREFIX}/${record.locale}/${record.slug}.json` });
      continue;
    }
    found.push(record);
  }
  return found;
}

/** The content without the retracted articles of each locale. */
export function withoutRetracted(content: SiteContent): SiteContent {
  const retracted = content.retracted;
  if (!retracted) return content;
  const articles = { ...content.articles };
  for (const locale of Object.keys(articles) as ContentLocale[]) {
    const gone = new Set((retracted[locale] ?? []).map((r) => r.slug));
    if (gone.size) articles[locale] = articles[locale].filter((a) => !gone.has(a.slug));
  }
  return { ...content, articles };
}
