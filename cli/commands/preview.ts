/** felt preview: flags → PreviewOptions → preview(), then serve the result until Ctrl-C. */
import path from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { CONTENT_LOCALES, UI_LOCALES, type ContentLocale, type UiLocale } from '../../shared/types.ts';
import { addExamples } from '../help.ts';
import { addCommonFlags, reporterFor, storageChoice, type CommonFlags } from './pipelineOptions.ts';
import { parsePort } from './serve.ts';

interface Flags extends CommonFlags {
  locale?: ContentLocale;
  ui?: UiLocale;
  out?: string;
  port: number;
  serve: boolean;
  pull: boolean;
}

export function registerPreview(program: Command): void {
  const command = addCommonFlags(
    program
      .command('preview')
      .description(
        "build tomorrow's site (production plus the dev bucket's new and changed articles, marked) into .felt-preview/ and serve it; content/ and dist/ are not touched, nothing is deployed",
      )
      .addOption(new Option('--locale <locale>', 'content locale to preview').choices(CONTENT_LOCALES))
      .addOption(new Option('--ui <ui>', "display locale of the interface (default: the content locale's)").choices(UI_LOCALES))
      .option('--out <dir>', 'where the preview is built (default: .felt-preview beside the content folder)')
      .option('--port <port>', 'port to serve on (0 picks a free one)', parsePort, 8080)
      .option('--no-serve', 'build only')
      .option('--no-pull', 'use content.dev/ as it is, without mirroring the dev bucket first'),
  ).action(async (flags: Flags) => {
    const reporter = reporterFor(flags);
    // Loaded when run, not with the CLI: a preview brings the build, the storage clients and the server.
    const [{ preview }, { startServer }] = await Promise.all([import('../preview.ts'), import('../../site/serve/server.ts')]);
    const result = await preview({
      contentDir: flags.content,
      outDir: flags.out && path.resolve(flags.out),
      locale: flags.locale,
      ui: flags.ui,
      pull: flags.pull,
      storage: storageChoice(flags),
      reporter,
    });
    reporter.json(result);
    if (!flags.serve) return;
    const running = await startServer({ root: result.build.outDir, port: flags.port });
    reporter.note(`preview at ${running.url}/ ; what would be published: ${running.url}/preview/  (Ctrl+C to stop)`);
    await new Promise<void>((resolve) => {
      const stop = () => void running.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
  addExamples(command, [
    ['felt preview', "mirror the dev bucket, build and serve tomorrow's English site on http://127.0.0.1:8080"],
    ['felt preview --locale tr_TR --port 0', 'the Turkish one, on any free port'],
    ['felt preview --no-serve --json', 'build only; the drafts as JSON, for scripts'],
  ]);
}
