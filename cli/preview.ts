/**
 * `felt preview` (issue 12, item 4): tomorrow's site before it is published.
 * The dev bucket is mirrored into content.dev/ (shared/contentOrigin.ts;
 * content/ is not touched), and the site is built from production's content
 * with the dev articles laid over it (site/content/devOverlay.ts) into its
 * own folder, never dist/: new and changed articles carry a badge on their
 * cards and pages, and /preview/ lists what publishing would change.
 * Nothing is deployed or published.
 *
 * Loaded with the CLI itself (not on use): the build must stay in felt's main
 * bundle, next to the render worker it starts (site/build/renderPool.ts).
 */
import path from 'node:path';
import { devContentDir } from '../shared/contentOrigin.ts';
import type { ContentLocale, UiLocale } from '../shared/types.ts';
import { buildSite, type BuildResult } from '../site/build/build.ts';
import type { PullResult } from './pull.ts';
import { checkOutputFolder } from './outputFolder.ts';
import { createReporter, plural, type Reporter } from './report.ts';
import type { StorageChoice } from './storage/index.ts';

export interface PreviewOptions {
  contentDir: string;
  /** Default: .felt-preview/ beside the content folder. */
  outDir?: string;
  locale?: ContentLocale;
  ui?: UiLocale;
  /** Mirror the dev bucket first (default true); false builds from content.dev/ as it is. */
  pull?: boolean;
  now?: Date;
  storage?: StorageChoice;
  reporter?: Reporter;
}

export interface PreviewResult {
  pulled?: Pick<PullResult, 'bucket' | 'download' | 'remove' | 'failed' | 'skipped'>;
  build: BuildResult;
  devContentDir: string;
}

export function defaultPreviewDir(contentDir: string): string {
  return path.join(path.dirname(path.resolve(contentDir)), '.felt-preview');
}

export async function preview(options: PreviewOptions): Promise<PreviewResult> {
  const reporter = options.reporter ?? createReporter();
  const devDir = devContentDir(options.contentDir);
  const outDir = path.resolve(options.outDir ?? defaultPreviewDir(options.contentDir));
  checkOutputFolder(outDir, options.contentDir);
  checkOutputFolder(outDir, devDir);
  let pulled: PreviewResult['pulled'];
  if (options.pull !== false) {
    // Loaded on use, as the pull command does: the storage clients are slow to load.
    const { pull } = await import('./pull.ts');
    // A mirror: an article gone from the dev bucket leaves the preview too.
    const result = await pull({
      contentDir: options.contentDir,
      env: 'dev',
      delete: true,
      locales: options.locale ? [options.locale] : undefined,
      storage: options.storage,
      reporter,
    });
    pulled = { bucket: result.bucket, download: result.download, remove: result.remove, failed: result.failed, skipped: result.skipped };
    // Named one a line, as felt pull names them: a dev article that is invalid or did not come down is not (or not
    // as it is now in the bucket) in the preview, and the editor looking at tomorrow's site must know which.
    for (const item of result.skipped) reporter.note(`skipped: ${item.name}: ${item.reason} (not in the preview)`);
    for (const item of result.failed) reporter.note(`failed: ${item.name}: ${item.reason} (the preview has content.dev/'s older copy, if any)`);
  }
  const build = await buildSite({
    contentDir: path.resolve(options.contentDir),
    outDir,
    devContentDir: devDir,
    locale: options.locale,
    ui: options.ui,
    now: options.now,
    // Badges come and go as articles are published: every page is rendered afresh.
    incremental: false,
  });
  const drafts = build.drafts ?? [];
  for (const d of drafts) reporter.print(`${d.draft.padEnd(8)} ${build.locale}/${d.slug}  "${d.title}"`);
  reporter.print(
    `preview of ${build.locale}: ${plural(drafts.filter((d) => d.draft === 'new').length, 'new article')}, ${drafts.filter((d) => d.draft === 'changed').length} changed, ${build.origins.production} from production; built into ${path.relative(process.cwd(), build.outDir) || '.'} (not deployed)`,
  );
  return { pulled, build, devContentDir: devDir };
}
