/**
 * `felt publish --slug S --version N` (issue 12, item 6): undoes a
 * regeneration. Version N of the article's history (cli/generate/history.ts)
 * becomes the dev bucket's article again, the text it replaces being kept as
 * the next version, and publish then promotes it as it would any article,
 * with its plan, its checks and its confirmation.
 */
import { FeltError } from '../shared/errors.ts';
import { LIMITS } from '../shared/limits.ts';
import { CONTENT_LOCALES, type ContentLocale } from '../shared/types.ts';
import { META } from './generate/existing.ts';
import { keepVersion, listVersions, versionObjectName } from './generate/history.ts';
import { loadProject } from './project.ts';
import { checkLocales } from './pull.ts';
import { createReporter, type Reporter } from './report.ts';
import { ARTICLE_CONTENT_TYPE, articleObjectName, bucketName, openStorage, type StorageChoice } from './storage/index.ts';
import { md5Base64 } from './storage/checksum.ts';

export interface RestoreOptions {
  contentDir: string;
  slug: string;
  version: number;
  locales?: string[];
  dryRun?: boolean;
  storage?: StorageChoice;
  reporter?: Reporter;
}

export interface RestoreResult {
  locale: ContentLocale;
  restored: number;
  /** The version the replaced dev text was kept as; absent when there was none or it was the same text. */
  kept?: number;
  object: string;
}

export async function restoreVersion(options: RestoreOptions): Promise<RestoreResult> {
  const reporter = options.reporter ?? createReporter();
  const project = await loadProject(options.contentDir);
  const dev = openStorage(project, options.storage).bucket(bucketName(project.settings.storage.prefix, 'dev'));
  const candidates = options.locales?.length ? checkLocales(options.locales) : CONTENT_LOCALES;
  const kept = [];
  for (const locale of candidates) {
    const versions = await listVersions(dev, locale, options.slug);
    if (versions.length) kept.push({ locale, versions });
  }
  if (kept.length > 1)
    throw new FeltError('BAD_OPTION', `"${options.slug}" has versions in ${kept.map((k) => k.locale).join(' and ')}`, {
      hint: 'add --locale to say which one',
    });
  const found = kept[0];
  if (!found?.versions.includes(options.version))
    throw new FeltError(
      'NO_SUCH_VERSION',
      found
        ? `version ${options.version} of ${found.locale}/${options.slug} is not kept; kept: ${found.versions.join(', ')}`
        : `no versions of "${options.slug}" are kept in ${dev.location}`,
      { hint: found ? 'choose one of the kept versions' : 'versions are kept when felt generate --slug S --replace rewrites an article' },
    );
  const { locale } = found;
  const object = articleObjectName(locale, options.slug);
  // A version, and the text it replaces, is an article: one larger than the limit is refused (OBJECT_TOO_LARGE), naming it.
  const text = await dev.read(versionObjectName(locale, options.slug, options.version), { maxBytes: LIMITS.articleBytes });
  const current = await dev.stat(object);
  reporter.print(
    `restore version ${options.version} of ${locale}/${options.slug} into ${dev.location}/${object}${current ? ', keeping the text it replaces as a new version' : ''}`,
  );
  if (options.dryRun) return { locale, restored: options.version, object };
  let keptAs: number | undefined;
  if (current && current.md5 !== md5Base64(text))
    keptAs = await keepVersion(dev, locale, options.slug, await dev.read(object, { maxBytes: LIMITS.articleBytes }), {
      [META.title]: current.metadata[META.title] ?? '',
    });
  await dev.write(object, text, {
    contentType: ARTICLE_CONTENT_TYPE,
    ifGenerationMatch: current?.generation ?? 0,
    metadata: { feltRestoredVersion: String(options.version) },
  });
  if (keptAs) reporter.print(`kept the replaced text as version ${keptAs}`);
  return { locale, restored: options.version, kept: keptAs, object };
}
