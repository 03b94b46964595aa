/**
 * `felt publish`: promotes articles from the dev bucket to production. The
 * plan (new, changed, unchanged by MD5) is printed first; production is
 * written only with --yes or a confirmation on a terminal; unchanged objects
 * are not copied; each copy carries the production generation seen in the
 * plan, so an object changed meanwhile is never overwritten.
 */
import pLimit from 'p-limit';
import { FeltError } from '../shared/errors.ts';
import { loadProject } from './project.ts';
import { createReporter, plural, type Reporter } from './report.ts';
import { bucketName, openStorage, type StorageChoice } from './storage/index.ts';
import { isPreconditionFailed } from './storage/errors.ts';
import type { Bucket, ObjectInfo } from './storage/types.ts';
import { checkLocales } from './pull.ts';

export interface PublishOptions {
  contentDir: string;
  locales?: string[];
  slugs?: string[];
  all?: boolean;
  yes?: boolean;
  dryRun?: boolean;
  /** Asks the operator on a terminal; absent when there is none. */
  confirm?: (question: string) => Promise<boolean>;
  storage?: StorageChoice;
  reporter?: Reporter;
}

export interface PublishItem {
  name: string;
  state: 'new' | 'changed' | 'unchanged';
  /** Production generation when planned ("0": absent). */
  generation: string;
}

export interface PublishResult {
  source: string;
  target: string;
  plan: PublishItem[];
  written: boolean;
  copied: string[];
  failed: { name: string; reason: string }[];
}

export async function publish(options: PublishOptions): Promise<PublishResult> {
  const reporter = options.reporter ?? createReporter();
  if (!options.all && !options.slugs?.length) throw new FeltError('BAD_OPTION', 'say what to publish: --slug SLUG (repeatable) or --all');
  const locales = checkLocales(options.locales);
  const project = await loadProject(options.contentDir);
  const storage = openStorage(project, options.storage);
  const dev = storage.bucket(bucketName(project.settings.storage.prefix, 'dev'));
  const prod = storage.bucket(bucketName(project.settings.storage.prefix, 'prod'));
  const plan = await makePublishPlan(dev, prod, locales, options.slugs);
  const result: PublishResult = { source: dev.location, target: prod.location, plan, written: false, copied: [], failed: [] };
  const todo = plan.filter((i) => i.state !== 'unchanged');
  for (const item of todo) reporter.print(`${item.state.padEnd(9)} ${item.name}`);
  reporter.print(
    `plan: ${plan.filter((i) => i.state === 'new').length} new, ${plan.filter((i) => i.state === 'changed').length} changed, ${plan.length - todo.length} unchanged (${dev.location} → ${prod.location})`,
  );
  if (!todo.length || options.dryRun) return result;
  if (!options.yes) {
    const question = `Write ${plural(todo.length, 'article')} to production ${prod.location}? [y/N] `;
    if (!options.confirm)
      throw new FeltError('CONFIRMATION_REQUIRED', `production not written: ${plural(todo.length, 'article')} would change`, {
        hint: 'check the plan above and rerun with --yes',
      });
    if (!(await options.confirm(question))) throw new FeltError('NOT_CONFIRMED', 'production not written: not confirmed');
  }
  if (!(await prod.exists())) await prod.create();
  result.written = true;
  const progress = reporter.progress('publish', todo.length);
  const limit = pLimit(8);
  await Promise.all(
    todo.map((item) =>
      limit(async () => {
        try {
          await dev.copyTo(item.name, prod, item.name, { ifGenerationMatch: item.generation });
          result.copied.push(item.name);
          progress.tick(`copied ${item.name}`);
        } catch (error) {
          const reason = isPreconditionFailed(error)
            ? 'changed in production since the plan was made; run publish again'
            : error instanceof Error
              ? error.message
              : String(error);
          result.failed.push({ name: item.name, reason });
          progress.tick(`failed ${item.name}: ${reason}`);
        }
      }),
    ),
  );
  progress.done();
  result.copied.sort();
  return result;
}

async function makePublishPlan(dev: Bucket, prod: Bucket, locales: readonly string[], slugs: string[] | undefined): Promise<PublishItem[]> {
  if (!(await dev.exists()))
    throw new FeltError('BUCKET_MISSING', `the dev bucket ${dev.location} does not exist`, {
      hint: 'generate articles first (felt generate), or check --storage',
    });
  const prodExists = await prod.exists();
  const plan: PublishItem[] = [];
  const found = new Set<string>();
  for (const locale of locales) {
    const prefix = `articles/${locale}/`;
    const source = await dev.list(prefix);
    const target = new Map<string, ObjectInfo>(prodExists ? (await prod.list(prefix)).map((o) => [o.name, o]) : []);
    const wanted = slugs ? new Set(slugs.map((s) => `${prefix}${s}.md`)) : undefined;
    for (const object of source) {
      if (!object.name.endsWith('.md') || (wanted && !wanted.has(object.name))) continue;
      found.add(object.name.slice(prefix.length, -3));
      const current = target.get(object.name);
      plan.push({ name: object.name, state: !current ? 'new' : current.md5 === object.md5 ? 'unchanged' : 'changed', generation: current?.generation ?? '0' });
    }
    // generation.images: an article's cover picture goes with it (cli/generate/images.ts).
    const pictures = `images/${locale}/`;
    const published = new Map<string, ObjectInfo>(prodExists ? (await prod.list(pictures)).map((o) => [o.name, o]) : []);
    for (const object of await dev.list(pictures)) {
      if (!object.name.endsWith('.png') || (slugs && !slugs.includes(object.name.slice(pictures.length, -4)))) continue;
      const current = published.get(object.name);
      plan.push({ name: object.name, state: !current ? 'new' : current.md5 === object.md5 ? 'unchanged' : 'changed', generation: current?.generation ?? '0' });
    }
  }
  const missing = (slugs ?? []).filter((s) => !found.has(s));
  if (missing.length) throw new FeltError('NOT_IN_DEV', `not in ${dev.location}: ${missing.join(', ')}`, { hint: 'check the slugs and --locale' });
  return plan;
}
