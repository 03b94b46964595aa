import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import path from 'node:path';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('must be a whole number from 0 to 65535.');
  return port;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the built site on 127.0.0.1, as production would')
    // --dist, as `felt deploy` names the built site; --dir still works, and --out, as `felt build` names the same folder.
    .option('--dist <dir>', 'the built site', 'dist')
    .addOption(new Option('--dir <dir>').hideHelp().conflicts(['dist', 'out']))
    .addOption(new Option('--out <dir>').hideHelp().conflicts('dist'))
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 8080)
    .option('--content <dir>', 'the content folder whose site.json lists the hosts of /__third-party-proxy', 'content')
    .addHelpText(
      'after',
      `
Examples:
  $ felt serve                                     http://127.0.0.1:8080
  $ felt serve --port 3000
  $ felt serve --dist /tmp/site --port 0           another build, on any free port`,
    )
    .action(async (flags: { dist: string; dir?: string; out?: string; port: number; content: string }) => {
      const dir = flags.out ?? flags.dir ?? flags.dist;
      // Loaded when serving, not with the CLI: a build never pays for the server's modules.
      const [{ createProxyRoute, readProxyAllowlist }, { startServer }] = await Promise.all([
        import('../../site/serve/proxy.ts'),
        import('../../site/serve/server.ts'),
      ]);
      const allow = await readProxyAllowlist(path.resolve(flags.content));
      const running = await startServer({ root: path.resolve(dir), port: flags.port, extraRoutes: createProxyRoute({ allow }) });
      console.log(`Serving ${dir} at ${running.url}/  (Ctrl+C to stop)`);
      await new Promise<void>((resolve) => {
        const stop = () => void running.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
