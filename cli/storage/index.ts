/**
 * Picks the storage backend (--storage, else site settings, else local) and
 * names the buckets: `{prefix}-dev` for generated articles, `{prefix}` for
 * production.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import { SLUG_PATTERN } from '../../shared/names.ts';
import type { Project } from '../project.ts';
import { GcsStorage } from './gcs.ts';
import { LocalStorage } from './local.ts';
import { STORAGE_KINDS, type Bucket, type Storage, type StorageKind } from './types.ts';

export interface StorageChoice {
  storage?: string;
  /** Overrides settings.storage.localRoot (a folder, relative to the project). */
  localRoot?: string;
  /** Overrides the GCS endpoint (STORAGE_EMULATOR_HOST is read by the library). */
  apiEndpoint?: string;
}

export function storageKind(value: string | undefined, fallback: StorageKind): StorageKind {
  const kind = value ?? fallback;
  if (!(STORAGE_KINDS as readonly string[]).includes(kind)) {
    throw new FeltError('BAD_OPTION', `--storage must be one of ${STORAGE_KINDS.join(', ')}, not "${kind}"`);
  }
  return kind as StorageKind;
}

export function openStorage(project: Project, choice: StorageChoice = {}): Storage {
  const kind = storageKind(choice.storage, project.settings.storage.backend);
  if (kind === 'local') return new LocalStorage(path.resolve(project.root, choice.localRoot ?? project.settings.storage.localRoot));
  const env = process.env;
  const { storage } = project.settings;
  // `||`, not `??`: a workflow that writes GOOGLE_CLOUD_PROJECT: ${{ vars.X }} sets it to "" when the variable is unset (issue 17).
  const projectId =
    env.GOOGLE_CLOUD_PROJECT || env.GCLOUD_PROJECT || storage.projectId || credentialsProject(env.GOOGLE_APPLICATION_CREDENTIALS) || storage.prefix;
  return new GcsStorage({ projectId, apiEndpoint: choice.apiEndpoint ?? storage.apiEndpoint });
}

/** The project of a service account key file (its project_id), as Google's own tools fall back to it. */
function credentialsProject(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    const key = JSON.parse(readFileSync(file, 'utf8')) as { project_id?: unknown; quota_project_id?: unknown };
    const project = key.project_id ?? key.quota_project_id;
    return typeof project === 'string' && project ? project : undefined;
  } catch {
    // An unreadable key is the client library's to report, with its own message, when it is used.
    return undefined;
  }
}

export type BucketEnv = 'dev' | 'prod';

export function bucketName(prefix: string, env: BucketEnv): string {
  return env === 'dev' ? `${prefix}-dev` : prefix;
}

export function articleObjectName(locale: string, slug: string): string {
  return `articles/${locale}/${slug}.md`;
}

/**
 * The slug of an object listed under articles/{locale}/, or undefined when the
 * name is not exactly articles/{locale}/{slug}.md with a lowercase kebab-case
 * slug (a `../`, a subfolder, another extension): such an object is never
 * pulled or published.
 */
export function articleSlugOf(name: string, locale: string): string | undefined {
  const slug = path.posix.basename(name, '.md');
  return name === articleObjectName(locale, slug) && SLUG_PATTERN.test(slug) ? slug : undefined;
}

export const NOT_AN_ARTICLE_NAME = 'not an article name (articles/{locale}/{slug}.md with a lowercase kebab-case slug)';

export const ARTICLE_CONTENT_TYPE = 'text/markdown; charset=utf-8';

/**
 * Removes what killed writers left in these folders of a folder bucket (Bucket.removeLeftovers; GCS has none: an
 * upload there is whole or absent), with a note for each: a rerun of the command that was killed cleans up after it.
 */
export async function removeLeftoversIn(bucket: Bucket, folders: Iterable<string>, note: (line: string) => void): Promise<void> {
  if (!bucket.removeLeftovers) return;
  for (const folder of new Set(folders))
    for (const name of await bucket.removeLeftovers(folder)) note(`removed ${name} in ${bucket.location}, left by a killed run`);
}
