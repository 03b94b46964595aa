/**
 * The versions of an article kept in the dev bucket (issue 12, item 6):
 * `history/{locale}/{slug}/{n}.md`, numbered from 1 in the order they were
 * replaced. A regeneration keeps the text it replaces here before it writes
 * the new one; `felt publish --slug S --version N` brings version N back
 * (keeping the text it replaces in turn), so nothing written is ever lost.
 */
import { FeltError } from '../../shared/errors.ts';
import { ARTICLE_CONTENT_TYPE } from '../storage/index.ts';
import { isPreconditionFailed } from '../storage/errors.ts';
import type { Bucket } from '../storage/types.ts';

export const HISTORY_PREFIX = 'history';

export function historyPrefix(locale: string, slug: string): string {
  return `${HISTORY_PREFIX}/${locale}/${slug}/`;
}

export function versionObjectName(locale: string, slug: string, version: number): string {
  return `${historyPrefix(locale, slug)}${version}.md`;
}

/** The version numbers kept for an article, oldest first. */
export async function listVersions(bucket: Bucket, locale: string, slug: string): Promise<number[]> {
  if (!(await bucket.exists())) return [];
  const prefix = historyPrefix(locale, slug);
  return (await bucket.list(prefix))
    .map((o) => o.name.slice(prefix.length))
    .filter((rest) => /^[1-9]\d*\.md$/.test(rest))
    .map((rest) => Number(rest.slice(0, -3)))
    .sort((a, b) => a - b);
}

/**
 * Keeps `text` as the article's next version and returns its number. Written
 * with "must not exist", so two runs at once cannot both take one number:
 * the loser takes the next.
 */
export async function keepVersion(bucket: Bucket, locale: string, slug: string, text: Buffer, metadata: Record<string, string> = {}): Promise<number> {
  for (let tries = 0; tries < 5; tries++) {
    const versions = await listVersions(bucket, locale, slug);
    const next = (versions.at(-1) ?? 0) + 1;
    try {
      await bucket.write(versionObjectName(locale, slug, next), text, { contentType: ARTICLE_CONTENT_TYPE, ifGenerationMatch: 0, metadata });
      return next;
    } catch (error) {
      if (!isPreconditionFailed(error)) throw error;
    }
  }
  throw new FeltError('STORAGE_PRECONDITION_FAILED', `could not keep a version of ${locale}/${slug}: another run keeps writing ${historyPrefix(locale, slug)}`);
}
