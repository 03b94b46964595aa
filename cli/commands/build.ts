import type { Command } from 'commander';
import { Option } from 'commander';
import { existsSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { CONTENT_LOCALES, UI_LOCALES, type ContentLocale, type UiLocale } from '../../shared/types.ts';
import { createReporter } from '../report.ts';
import { positiveInt } from './pipelineOptions.ts';
import { FeltError, describeError } from '../../shared/errors.ts';
import { displayPath } from '../../shared/paths.ts';
import { checkOutputFolder } from '../outputFolder.ts';
import { budgetOptimisation, defaultThreads, everyPageThreads, startRenderWorkers, stopStartedWorkers, workerCount } from '../../site/build/renderWorkers.ts';

export interface BuildFlags {
  content: string;
  out: string;
  locale?: ContentLocale;
  ui?: UiLocale;
  threads?: number;
  incremental: boolean;
  json?: boolean;
}

export function registerBuild(program: Command): void {
  program
    .command('build')
    .description('build the static site from content/ into dist/')
    .option('--content <dir>', 'content folder', 'content')
    .option('--out <dir>', 'output folder (replaced only when the build succeeds)', 'dist')
    .addOption(new Option('--locale <locale>', 'content locale to build').choices(CONTENT_LOCALES))
    .addOption(new Option('--ui <ui>', "display locale of the interface (default: the content locale's)").choices(UI_LOCALES))
    .option('--threads <n>', 'render threads (default: one per core)', positiveInt('--threads'))
    .option('--no-incremental', 'render every page, ignoring the previous build and the article cache')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ felt build                          build the English site into dist/
  $ felt build --locale ru_RU           the Russian site, with a Russian interface
  $ felt build --locale en_US --ui ko   English articles, Korean interface
  $ felt build --out /tmp/site --json   for scripts`,
    )
    .action(async (flags: BuildFlags) => {
      const outDir = path.resolve(flags.out);
      const stopped = sayWhenStopped(outDir);
      try {
        await build(flags, outDir, stopped);
      } finally {
        // felt's own process ends soon after; one that runs the CLI in-process (a test) must not keep the handlers.
        stopped.stopListening();
      }
    });
}

async function build(flags: BuildFlags, outDir: string, stopped: StopNotice): Promise<void> {
  // A build that renders every page (no previous site, or --no-incremental) starts its render workers first:
  // they load their modules on the other cores while this thread loads the build's and the content.
  const contentDir = path.resolve(flags.content);
  checkOutputFolder(outDir, contentDir);
  const rendersEveryPage = !flags.incremental || !existsSync(outDir);
  // A large site's article folders are listed and checked on another thread from now on, while the build's
  // modules load (site/content/statFiles.ts): a rebuild at 100,000 articles waited for that listing.
  if (flags.incremental) {
    const [{ listArticlesAhead }, { articleCacheFile }] = await Promise.all([
      import('../../site/content/statFiles.ts'),
      import('../../site/content/articleCache.ts'),
    ]);
    listArticlesAhead(contentDir, articleCacheFile(contentDir));
  }
  // Before the build's modules load and its threads start, so that it holds for all of them (renderWorkers.ts says
  // why); a rebuild, which mostly runs the build's own thread, was not measured with it.
  if (rendersEveryPage) budgetOptimisation();
  // A small site renders every page on this thread alone (everyPageThreads says why); a rebuild decides by what changed.
  const threads = flags.threads ?? (rendersEveryPage ? everyPageThreads(contentDir) : undefined);
  const workers = workerCount(threads ?? defaultThreads());
  // A rebuild starts none ahead: its first changed pages render on this thread, and workers only past them (build.ts).
  if (rendersEveryPage) startRenderWorkers(workers);
  // And, with no image cache, its share cards: on a thread of their own, while this one loads (earlyCards.ts).
  if (rendersEveryPage) await (await import('../../site/pictures/earlyCards.ts')).startEarlyCards(contentDir);
  // Loaded here, not with the CLI: the other commands never pay for the site's modules (React, markdown-it, zod…).
  // The progress display's delay starts after: loading is not the build's waiting.
  const { buildSite } = await import('../../site/build/build.ts').catch(async (error: unknown) => {
    await stopStartedWorkers();
    throw error;
  });
  const progress = delayedProgress(flags.json ? 'off' : process.stderr.isTTY ? 'tty' : 'plain');
  try {
    const result = await buildSite({
      contentDir,
      outDir,
      locale: flags.locale,
      ui: flags.ui,
      threads,
      incremental: flags.incremental,
      now: buildTime(process.env.SOURCE_DATE_EPOCH),
      onProgress: progress.update,
      onOutputReady: stopped.outputReady,
    });
    // Built: a signal from now on stops a finished build, which needs no word.
    stopped.stopListening();
    progress.finish();
    if (flags.json) console.log(JSON.stringify(result));
    else
      console.log(
        `Built ${result.pages} pages (${result.rendered} rendered, ${result.articles} articles, ${result.locale}, interface ${result.ui}) into ${path.relative(process.cwd(), result.outDir) || '.'} in ${(result.milliseconds / 1000).toFixed(1)} s`,
      );
    // A site without articles is a site all the same (exit 0), but most often a --locale no article is written in yet.
    if (result.articles === 0)
      console.error(
        `felt: warning: no ${result.locale} article in ${displayPath(path.join(contentDir, 'articles', result.locale))}: the site has none. check --locale, or pull or generate its articles first`,
      );
  } finally {
    progress.finish();
    await stopStartedWorkers();
  }
}

interface StopNotice {
  /** The output folder is ready: what it serves now is the previous build (a plain dist/ of an older felt moved in, a lost link made again). */
  outputReady: () => void;
  stopListening: () => void;
}

/**
 * Ctrl-C, or a CI job's cancel (SIGTERM), stops a build at once, as a kill would: dist/ changes in one step, the
 * build's last (README, "Never a broken dist/"), and the next build clears what this one left. One line says which
 * site is served, where the process used to end without a word (exit 130 and a progress bar left half drawn).
 */
function sayWhenStopped(outDir: string): StopNotice {
  let servedBefore = servedRelease(outDir);
  const stop = (signal: NodeJS.Signals) => {
    const served = servedRelease(outDir);
    const state =
      served === undefined
        ? `nothing is served from ${displayPath(outDir)} yet`
        : served === servedBefore
          ? `${displayPath(outDir)} still serves the previous build`
          : `${displayPath(outDir)} already serves the new build`;
    const stopped = new FeltError('INTERRUPTED', `build stopped by ${signal}; ${state}`, { hint: 'run felt build again: it clears what this one left' });
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}felt: ${describeError(stopped)}\n`);
    process.exit(128 + os.constants.signals[signal]);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    outputReady: () => void (servedBefore = servedRelease(outDir)),
    stopListening: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** The release outDir links to (where a build left it), or undefined when there is none. */
function servedRelease(outDir: string): string | undefined {
  try {
    return readlinkSync(outDir);
  } catch {
    return existsSync(outDir) ? outDir : undefined;
  }
}

/**
 * The build time (copyright year, feed dates): now, or SOURCE_DATE_EPOCH
 * (seconds since 1970, the reproducible-builds convention) so that two builds
 * of the same content are byte for byte the same.
 */
export function buildTime(sourceDateEpoch: string | undefined): Date | undefined {
  if (sourceDateEpoch === undefined || sourceDateEpoch === '') return undefined;
  if (!/^\d{1,12}$/.test(sourceDateEpoch))
    throw new FeltError('BAD_OPTION', `SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${sourceDateEpoch}"`, {
      hint: 'unset it, or set it to e.g. $(git log -1 --format=%ct)',
    });
  return new Date(Number(sourceDateEpoch) * 1000);
}

/**
 * The build's progress, on felt's one progress display (cli/report.ts):
 * only for builds that take more than a second (a small site finishes before
 * anything is drawn), a bar redrawn in place on a terminal, a plain line per
 * update in CI logs, nothing with --json.
 */
export function delayedProgress(mode: 'tty' | 'plain' | 'off', delayMs = 1000, stream: Writable = process.stderr) {
  const reporter = createReporter({ json: mode === 'off', tty: mode === 'tty', stderr: stream });
  const progress = reporter.progress('building pages', 0, { delayMs, waiting: 'building: loading content, bundling scripts and styles…' });
  return { update: progress.update, finish: progress.done };
}
