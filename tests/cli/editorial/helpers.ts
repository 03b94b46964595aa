/**
 * Shared set-up of the editorial tests (issue 12 items 4-7, issue 17.2): a
 * buildable copy of the fixture site in a temp folder, buckets on the local
 * folder storage or on the loopback GCS server (the real client), and a
 * reporter whose lines the test reads.
 */
import path from 'node:path';
import { createReporter } from '../../../cli/report.ts';
import { loadProject } from '../../../cli/project.ts';
import { openStorage, type StorageChoice } from '../../../cli/storage/index.ts';
import type { Bucket } from '../../../cli/storage/types.ts';
import type { FakeGcs } from '../../support/fakeGcs.ts';
import { captureStreams } from '../../support/fixtureSite.ts';

export const PREFIX = 'felt-magazine';

export function quiet() {
  const streams = captureStreams();
  return { reporter: createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false }), streams };
}

export function storageChoice(kind: 'local' | 'gcs', gcs: FakeGcs | undefined): StorageChoice {
  return kind === 'gcs' ? { storage: 'gcs', apiEndpoint: gcs!.url } : { storage: 'local' };
}

export async function openBucket(contentDir: string, choice: StorageChoice, env: 'dev' | 'prod'): Promise<Bucket> {
  const bucket = openStorage(await loadProject(contentDir), choice).bucket(env === 'dev' ? `${PREFIX}-dev` : PREFIX);
  if (!(await bucket.exists())) await bucket.create();
  return bucket;
}

/** A valid article of the fixture site (tests/fixtures/site). */
export function fixtureArticle(slug: string, title: string, options: { locale?: string; date?: string; body?: string; translationKey?: string } = {}): string {
  const locale = options.locale ?? 'en_US';
  return [
    '---',
    `title: "${title}"`,
    `slug: ${slug}`,
    `description: "All about ${title}."`,
    'author: Mara Lindqvist',
    `date: ${options.date ?? '2026-02-01'}`,
    `locale: ${locale}`,
    ...(options.translationKey ? [`translationKey: ${options.translationKey}`] : []),
    'entities:',
    '  - category: pokerGuides',
    '    subcategories:',
    '      - subcategory: beginnerPokerTips',
    '---',
    '',
    options.body ?? `${title} starts here.\n\n## First\n\nText.\n`,
  ].join('\n');
}

export async function putArticle(bucket: Bucket, slug: string, title: string, options: Parameters<typeof fixtureArticle>[2] = {}) {
  return bucket.write(`articles/${options.locale ?? 'en_US'}/${slug}.md`, Buffer.from(fixtureArticle(slug, title, options)), {
    contentType: 'text/markdown; charset=utf-8',
  });
}

export const articlePath = (contentDir: string, slug: string, locale = 'en_US') => path.join(contentDir, 'articles', locale, `${slug}.md`);
