/**
 * felt dev: a supervisor that runs the dev server in a child process and
 * starts a fresh one when felt's own code changes (the child exits with
 * RESTART_CODE after recompiling). Content changes never restart anything.
 */
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { Option } from 'commander';
import path from 'node:path';
import { CONTENT_LOCALES, UI_LOCALES, type ContentLocale, type UiLocale } from '../../shared/types.ts';
import { addExamples } from '../help.ts';
import { checkOutputFolder } from '../outputFolder.ts';
import { parsePort } from './serve.ts';

interface DevFlags {
  content: string;
  out: string;
  port: number;
  locale?: ContentLocale;
  ui?: UiLocale;
  child?: boolean;
}

export function registerDev(program: Command): void {
  const command = program
    .command('dev')
    .description('build, serve on 127.0.0.1, rebuild what changes and reload the browser; click an article title to edit it')
    .option('--content <dir>', 'content folder', 'content')
    .option('--out <dir>', 'where the dev build goes', '.felt-cache/dev')
    .option('--port <port>', 'port to listen on', parsePort, 8080)
    .addOption(new Option('--locale <locale>', 'content locale').choices(CONTENT_LOCALES))
    .addOption(new Option('--ui <ui>', 'display locale of the interface').choices(UI_LOCALES))
    .addOption(new Option('--child').hideHelp())
    .action(async (flags: DevFlags) => {
      if (!flags.child) checkOutputFolder(flags.out, flags.content);
      return flags.child ? runChild(flags) : supervise();
    });
  addExamples(command, [
    ['felt dev', 'build, serve and watch the bundled content on http://127.0.0.1:8080'],
    ['felt dev --locale tr_TR --port 3000', 'the Turkish site, on another port'],
  ]);
}

async function runChild(flags: DevFlags): Promise<void> {
  // Loaded when run, not with the CLI: the dev server brings the whole build and a file watcher.
  const { startDev } = await import('../../site/dev/devServer.ts');
  const dev = await startDev({
    contentDir: path.resolve(flags.content),
    outDir: path.resolve(flags.out),
    port: flags.port,
    locale: flags.locale,
    ui: flags.ui,
    log: (line) => console.log(line),
  });
  console.log(`felt dev: ${dev.url}/  (watching ${flags.content}, locales, prompts and felt's code; Ctrl+C to stop)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => void dev.close().then(resolve));
    process.once('SIGTERM', () => void dev.close().then(resolve));
  });
}

async function supervise(): Promise<void> {
  const { RESTART_CODE } = await import('../../site/dev/devServer.ts');
  const args = [...process.argv.slice(1), '--child'];
  for (;;) {
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, args, { stdio: 'inherit' });
      const forward = (signal: NodeJS.Signals) => child.kill(signal);
      process.once('SIGINT', forward);
      process.once('SIGTERM', forward);
      child.on('exit', (exitCode) => {
        process.off('SIGINT', forward);
        process.off('SIGTERM', forward);
        resolve(exitCode ?? 0);
      });
    });
    if (code !== RESTART_CODE) {
      process.exitCode = code;
      return;
    }
  }
}
