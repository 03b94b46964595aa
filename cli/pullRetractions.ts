/**
 * The part of `felt pull` that brings retractions (cli/retract.ts) into
 * content/retracted/{locale}/: a record whose checksum differs from the local
 * copy is downloaded, validated and written atomically, and the retracted
 * article's file is removed from content/articles, with or without --delete:
 * a retraction is the operator's explicit word that the article is gone.
 * With --delete, a local record the bucket no longer has is removed, so an
 * article put back in production is built again.
 */
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { articleFile } from '../shared/paths.ts';
import { writeFileAtomic } from '../shared/atomicWrite.ts';
import { LIMIT_HINT, LIMITS, formatBytes, tooLarge } from '../shared/limits.ts';
import { RETRACTED_PREFIX, retractionSchema } from '../shared/retraction.ts';
import { SLUG_PATTERN } from '../shared/names.ts';
import type { ContentLocale } from '../shared/types.ts';
import type { Reporter } from './report.ts';
import { CHANGED_WHILE_READ } from './objectCheck.ts';
import { md5Base64 } from './storage/checksum.ts';
import { readWithin } from './storage/errors.ts';
import type { Bucket } from './storage/types.ts';

export interface RetractionsPulled {
  /** Records written into content/retracted/. */
  records: string[];
  /** Article files removed because their article was retracted. */
  removed: string[];
  /** Local records the bucket no longer has, removed with --delete. */
  unretracted: string[];
  failed: { name: string; reason: string }[];
}

export async function pullRetractions(
  bucket: Bucket,
  contentDir: string,
  locales: readonly ContentLocale[],
  { dryRun, deleteStale }: { dryRun: boolean; deleteStale: boolean },
  reporter: Reporter,
): Promise<RetractionsPulled> {
  const result: RetractionsPulled = { records: [], removed: [], unretracted: [], failed: [] };
  for (const locale of locales) {
    const remote = new Set<string>();
    for (const object of await bucket.list(`${RETRACTED_PREFIX}/${locale}/`)) {
      const slug = path.posix.basename(object.name, '.json');
      if (object.name !== `${RETRACTED_PREFIX}/${locale}/${slug}.json` || !SLUG_PATTERN.test(slug)) {
        result.failed.push({ name: object.name, reason: 'not a retraction record name (retracted/{locale}/{slug}.json); skipped' });
        continue;
      }
      remote.add(`${slug}.json`);
      // Larger than a record can be (LIMITS.retractionBytes, which the build reads it within): failed, its local copy as it was.
      const tooBig = (what: string) => `record ${what}; replace or delete it in the bucket (${LIMIT_HINT})`;
      if (object.size > LIMITS.retractionBytes) {
        result.failed.push({ name: object.name, reason: tooBig(tooLarge(object.size, LIMITS.retractionBytes)) });
        continue;
      }
      const target = path.join(contentDir, RETRACTED_PREFIX, locale, `${slug}.json`);
      const article = articleFile(contentDir, locale, slug);
      const local = await readFile(target).catch(() => undefined);
      const articleThere = Boolean(await stat(article).catch(() => undefined));
      if (local && md5Base64(local) === object.md5 && !articleThere) continue;
      if (dryRun) {
        reporter.print(`retracted ${locale}/${slug}${articleThere ? ` (deletes ${article})` : ''}`);
        continue;
      }
      try {
        const data = await readWithin(bucket, object.name, LIMITS.retractionBytes);
        if (!data) throw new Error(tooBig(`is larger than the limit of ${formatBytes(LIMITS.retractionBytes)}, whatever its listing says`));
        if (md5Base64(data) !== object.md5) throw new Error(CHANGED_WHILE_READ);
        const record = retractionSchema.safeParse(JSON.parse(data.toString('utf8')));
        if (!record.success || record.data.slug !== slug || record.data.locale !== locale) throw new Error('not a valid retraction record for its name');
        await writeFileAtomic(target, data);
        result.records.push(target);
        if (articleThere) {
          await rm(article, { force: true });
          result.removed.push(article);
          reporter.print(`deleted ${article} (retracted)`);
        }
      } catch (error) {
        result.failed.push({ name: object.name, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    // A record production no longer has (an article put back): gone locally too, with --delete as for articles.
    if (!deleteStale) continue;
    const folder = path.join(contentDir, RETRACTED_PREFIX, locale);
    for (const name of (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json') && !remote.has(n))) {
      if (!dryRun) await rm(path.join(folder, name), { force: true });
      result.unretracted.push(path.join(folder, name));
      reporter.print(`${dryRun ? 'would delete' : 'deleted'} ${path.join(folder, name)} (no longer retracted in the bucket)`);
    }
  }
  return result;
}
