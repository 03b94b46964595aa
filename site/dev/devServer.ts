/**
 * `felt dev`: build, serve on 127.0.0.1, watch, rebuild only what changed,
 * reload the browser. Content, UI strings and prompts are rebuilt in this
 * process (incrementally, in tens of milliseconds for one article); a change
 * to felt's own code ends this process with RESTART_CODE after recompiling,
 * and the supervisor in cli/commands/dev.ts starts a fresh one.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildSite, type BuildResult } from '../build/build.ts';
import { escapeHtml } from '../render/document.ts';
import { ContentError, FeltError, describeError, formatProblem } from '../../shared/errors.ts';
import { FELT_ROOT } from '../../shared/paths.ts';
import type { ContentLocale, UiLocale } from '../../shared/types.ts';
import { SERVER_TIMEOUTS, countAsIdle, guardConnections } from '../serve/connectionGuard.ts';
import { createHandler } from '../serve/server.ts';
import { saveArticleTitle } from './editTitle.ts';
import { watchSources } from './watchSources.ts';

export const RESTART_CODE = 75;
const CLIENT_SCRIPT = '/__felt/dev.js';
/** The names a page of this server can be opened under. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

export interface DevOptions {
  contentDir: string;
  outDir: string;
  port: number;
  locale?: ContentLocale;
  ui?: UiLocale;
  log: (line: string) => void;
}

interface Problem {
  title: string;
  lines: string[];
}

export interface DevServer {
  url: string;
  close(): Promise<void>;
  /** Resolves after the next rebuild (for tests). */
  rebuilt(): Promise<BuildResult | Problem>;
}

function problemOf(error: unknown): Problem {
  if (error instanceof ContentError) return { title: error.message, lines: error.problems.map(formatProblem) };
  return { title: error instanceof FeltError ? 'The build failed' : 'The build crashed', lines: [describeError(error)] };
}

export async function startDev(options: DevOptions): Promise<DevServer> {
  const clients = new Set<http.ServerResponse>();
  const session = Date.now().toString(36);
  // Builds finished, stamped on each page served and said in each greeting: a page served before a build whose
  // 'reload' it missed (its event stream connected after it) reloads when it connects.
  let builds = 0;
  let problem: Problem | undefined;
  let locale: ContentLocale = options.locale ?? 'en_US';
  let waiters: ((result: BuildResult | Problem) => void)[] = [];
  const send = (event: string, data: unknown) => {
    for (const client of clients) client.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const rebuild = async (threads?: number) => {
    const started = Date.now();
    let outcome: BuildResult | Problem;
    try {
      const result = await buildSite({ contentDir: options.contentDir, outDir: options.outDir, locale: options.locale, ui: options.ui, threads });
      locale = result.locale;
      problem = undefined;
      outcome = result;
      builds++;
      options.log(`rebuilt ${result.rendered} of ${result.pages} pages in ${Date.now() - started} ms`);
      send('reload', {});
    } catch (error) {
      problem = problemOf(error);
      outcome = problem;
      options.log(`${problem.title}\n${problem.lines.map((l) => `  ${l}`).join('\n')}`);
      send('problem', problem);
    }
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve(outcome);
  };

  const files = createHandler({
    root: options.outDir,
    transformHtml: (html) => html.replace('</body>', `<script src="${CLIENT_SCRIPT}" type="module" data-build="${builds}"></script></body>`),
  });
  const clientJs = await readFile(path.join(FELT_ROOT, 'site', 'dev', 'client.js'));
  // The port is taken before the first build, so that a port in use is said at once, not after the build; a request
  // meanwhile waits for that build.
  let firstBuilt!: () => void;
  const firstBuild = new Promise<void>((resolve) => (firstBuilt = resolve));

  const server = http.createServer(SERVER_TIMEOUTS, async (request, response) => {
    // On every answer, the dev server's own (its script, refusals, overlay, event stream) as the site's files: a browser
    // never takes one for another type than it says.
    // Its connection is gone already (closed over the pipelining cap, connectionGuard.ts): nobody to answer.
    if (request.socket.destroyed) return;
    response.setHeader('X-Content-Type-Options', 'nosniff');
    try {
      await firstBuild;
      // Parsed inside the try: a request target no URL parser takes (`GET http://[ HTTP/1.1`)
      // is a 400, not a rejection that ends the dev server.
      let url: URL;
      try {
        url = new URL(request.url ?? '/', 'http://localhost');
      } catch {
        response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad Request\n');
        return;
      }
      // The dev server's routes (events, error overlay) name local files: only
      // loopback hosts may read them, so a DNS-rebinding page cannot.
      if (url.pathname.startsWith('/__felt/') && !LOOPBACK_HOST.test(request.headers.host ?? '')) {
        response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden');
        return;
      }
      if (url.pathname === CLIENT_SCRIPT) {
        response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).end(clientJs);
      } else if (url.pathname === '/__felt/events') {
        // Open for as long as the page is: it must not count against the connection caps as an answer in flight.
        countAsIdle(response);
        response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
        response.write(`event: hello\ndata: ${JSON.stringify({ session, build: builds })}\n\n`);
        if (problem) response.write(`event: problem\ndata: ${JSON.stringify(problem)}\n\n`);
        clients.add(response);
        request.on('close', () => clients.delete(response));
      } else if (url.pathname === '/__felt/title' && request.method === 'POST') {
        await editTitle(request, response);
      } else if (problem && (request.headers.accept ?? '').includes('text/html')) {
        // The overlay names local files too: under another host name (DNS rebinding) it says only that the build failed.
        if (!LOOPBACK_HOST.test(request.headers.host ?? ''))
          response
            .writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
            .end('The build failed: open the site on 127.0.0.1 to see why.\n');
        else response.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(overlayPage(problem));
      } else {
        await files(request, response);
      }
    } catch (error) {
      // The message can name local files: in full to loopback host names only, as the overlay (DNS rebinding).
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(LOOPBACK_HOST.test(request.headers.host ?? '') ? describeError(error) : 'Internal Server Error\n');
    }
  });

  guardConnections(server);

  // Only pages served by this dev server may edit content (no other site can post here).
  // The Host must be a loopback name too: through DNS rebinding, another site's
  // own name points at 127.0.0.1, and its Origin then matches its Host (issue 6).
  const editTitle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const origin = request.headers.origin;
    const host = request.headers.host ?? '';
    if (!LOOPBACK_HOST.test(host) || (origin && origin !== `http://${host}`)) {
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden');
      return;
    }
    let body = '';
    for await (const chunk of request) {
      body += chunk;
      if (body.length > 10_000) break;
    }
    try {
      const { slug, title } = JSON.parse(body) as { slug: string; title: string };
      const file = await saveArticleTitle(options.contentDir, locale, String(slug), String(title));
      options.log(`saved the title of ${path.relative(process.cwd(), file)}`);
      response.writeHead(204).end();
    } catch (error) {
      response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end(describeError(error));
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new FeltError('PORT_IN_USE', `port ${options.port} is already in use`, { hint: 'choose another with --port' }) : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', resolve);
  });
  await rebuild();
  firstBuilt();

  const watchers = await watchSources(options.contentDir, {
    onContent: () => queue(),
    onCode: () => restart(options.log),
    onError: (error) => options.log(`watching for changes failed: ${describeError(error)}`),
  });
  let running: Promise<void> | undefined;
  let again = false;
  // Saves come in bursts (an editor writes, renames, touches): one rebuild per burst.
  let timer: NodeJS.Timeout | undefined;
  const queue = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (running) {
        again = true;
        return;
      }
      do {
        again = false;
        running = rebuild(1);
        await running;
        running = undefined;
      } while (again);
    }, 10);
  };

  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    rebuilt: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      await watchers.close();
      for (const client of clients) client.end();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function restart(log: DevOptions['log']): void {
  log("felt's code changed: recompiling and restarting…");
  try {
    execFileSync(process.execPath, [path.join(FELT_ROOT, 'scripts', 'compile.mjs')], { stdio: 'inherit' });
    process.exit(RESTART_CODE);
  } catch {
    log('the code does not compile; fix it and save again');
  }
}

function overlayPage(problem: Problem): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Build error</title></head><body style="background:#200;color:#fff;font:14px/1.5 monospace;padding:2rem;white-space:pre-wrap"><h1>${escapeHtml(problem.title)}</h1>${problem.lines.map((l) => `<div>${escapeHtml(l)}</div>`).join('')}<p>Fix the files and save: this page reloads by itself.</p><script src="${CLIENT_SCRIPT}" type="module"></script></body></html>`;
}
