/**
 * `felt serve`: a production-like static server for dist/ on 127.0.0.1.
 * Correct content types, the 404 page with status 404, caching and security
 * headers, conditional requests (ETag, Last-Modified), content encoding as
 * the client accepts it, single byte ranges (ranges.ts), HEAD, and never a
 * file outside the site folder.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { ERROR_PAGES } from '../../shared/errorPages.ts';
import { FeltError } from '../../shared/errors.ts';
import { SECURITY_HEADERS, cacheControlFor, contentTypeFor } from './headers.ts';
import { fileInside, resolveRequestPath } from './resolvePath.ts';
import { CompressionCache, MAX_BUFFERED_BYTES, acceptsIdentity, compressingStream, negotiateEncoding, type Encoding } from './compression.ts';
import { isNotModified } from './conditional.ts';
import { SERVER_TIMEOUTS, guardConnections } from './connectionGuard.ts';
import { answerFromRedirects } from './redirects.ts';
import { chooseRange, contentRange } from './ranges.ts';
import { RequestLeases, servedRoot } from '../build/releaseReaders.ts';

/** The site's service worker (site/client/sw/sw.ts, written by the build). */
const SERVICE_WORKER_PATH = '/sw.js';

export interface ServeOptions {
  root: string;
  port?: number;
  host?: string;
  /** Handles routes that are not files (the third-party proxy); returns true when it answered. */
  extraRoutes?: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<boolean>;
  /** Rewrites every HTML page before it is sent (`felt dev` adds its live-reload script); nothing is cached then. */
  transformHtml?: (html: string) => string;
}

export interface RunningServer {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

async function findFile(root: string, candidates: string[]) {
  for (const file of candidates) {
    const found = await fileInside(root, file);
    if (found) return found;
  }
  return undefined;
}

/** What to do for each response on a connection when it closes (whenAnswered). */
const onConnectionClose = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `then`, once, when the response has ended or its connection has closed. A
 * response's own 'close' is not enough: when a client that pipelined several
 * requests hangs up, Node drops the responses still queued behind the first
 * without ever closing them (issue 16), and a request's lease on its release
 * was then held for as long as the server ran, so no build could rework or
 * remove that release. One listener per connection, however many requests
 * it pipelines.
 */
function whenAnswered(request: http.IncomingMessage, response: http.ServerResponse, then: () => void): void {
  let called = false;
  const done = () => {
    if (called) return;
    called = true;
    then();
  };
  const socket = request.socket;
  if (socket.destroyed) return done();
  let pending = onConnectionClose.get(socket);
  if (!pending) {
    const waiting = (pending = new Set());
    onConnectionClose.set(socket, waiting);
    socket.once('close', () => {
      for (const call of waiting) call();
      waiting.clear();
    });
  }
  pending.add(done);
  response.once('close', () => {
    pending.delete(done);
    done();
  });
}

/**
 * The folder that answers one request: dist/ is a link that each build flips
 * to its new release (site/build/output.ts), so it is resolved once per
 * request, and every file of the request comes from that one release, whole,
 * even when a build flips the link meanwhile: the request holds a lease on it
 * until its response ends, so no build reworks it meanwhile (releaseReaders.ts).
 */
export function createHandler(options: ServeOptions) {
  const leases = new RequestLeases(path.resolve(options.root));
  const compressed = new CompressionCache();
  return async (request: http.IncomingMessage, response: http.ServerResponse) => {
    // Its connection is gone already (closed over the pipelining cap, connectionGuard.ts): nobody to answer.
    if (request.socket.destroyed) return;
    const { root, leave } = await leases.enter();
    whenAnswered(request, response, leave);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method Not Allowed\n');
      return;
    }
    // A browser asks for a service worker's script with `Service-Worker: script`.
    // The site has one, /sw.js; any other script of this origin (a proxied
    // third-party one above all) registered as a worker would answer for every page.
    if (request.headers['service-worker'] !== undefined && (request.url ?? '').split('?')[0] !== SERVICE_WORKER_PATH) {
      response
        .writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
        .end(`Forbidden: the only service worker of this site is ${SERVICE_WORKER_PATH}\n`);
      return;
    }
    if (options.extraRoutes && (await options.extraRoutes(request, response))) return;
    // Retracted articles: 410 with the gone page, or 301 to where they went (redirects.ts).
    if (await answerFromRedirects(root, request, response)) return;
    const resolution = resolveRequestPath(root, request.url ?? '/');
    if (!resolution.ok) {
      if (resolution.status === 400) response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad Request\n');
      else await sendNotFound(root, request, response, compressed);
      return;
    }
    const found = await findFile(root, resolution.candidates);
    if (!found) return sendNotFound(root, request, response, compressed);
    const relative = path.relative(root, found.file);
    const contentType = contentTypeFor(found.file);
    response.setHeader('Vary', 'Accept-Encoding');
    // Negotiated before the conditions: a response that would not be a 200 ignores them (RFC 9110, 13.2.1).
    const encoding = negotiateEncoding(request.headers, contentType, found.info.size);
    if (!encoding) {
      response.writeHead(406, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Acceptable\n');
      return;
    }
    const etag = `W/"${found.info.size.toString(16)}-${Math.floor(found.info.mtimeMs).toString(16)}"`;
    const lastModified = found.info.mtime.toUTCString();
    response.setHeader('ETag', etag);
    response.setHeader('Last-Modified', lastModified);
    response.setHeader('Cache-Control', cacheControlFor(relative));
    response.setHeader('Content-Type', contentType);
    if (isNotModified(request.headers, { etag, lastModified })) {
      response.writeHead(304).end();
      return;
    }
    if (options.transformHtml && found.file.endsWith('.html')) {
      const html = Buffer.from(options.transformHtml(await readFile(found.real, 'utf8')));
      response.writeHead(200, { 'Content-Length': html.length, 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : html);
      return;
    }
    // A range is of the file's own bytes, sent unencoded; a client that refuses those gets the whole file encoded.
    const range = chooseRange(request.headers, found.info.size, { etag, lastModified }, Date.now());
    const rangeApplies = range.kind !== 'whole' && acceptsIdentity(request.headers);
    if (rangeApplies && range.kind === 'unsatisfiable') {
      for (const name of ['ETag', 'Last-Modified', 'Cache-Control']) response.removeHeader(name);
      response.writeHead(416, { 'Content-Range': contentRange(found.info.size), 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : 'Range Not Satisfiable\n');
      return;
    }
    if (rangeApplies && range.kind === 'part') {
      response.writeHead(206, {
        'Accept-Ranges': 'bytes',
        'Content-Range': contentRange(found.info.size, range),
        'Content-Length': range.end - range.start + 1,
      });
      if (request.method === 'HEAD') response.end();
      else streamFile(found.real, response, range);
      return;
    }
    if (encoding !== 'identity' && found.info.size > MAX_BUFFERED_BYTES) {
      // Compressed as it is sent, so its length is not known before: chunked.
      response.writeHead(200, { 'Content-Encoding': encoding });
      if (request.method === 'HEAD') response.end();
      else streamFile(found.real, response, undefined, { encoding, size: found.info.size });
      return;
    }
    if (encoding !== 'identity') {
      // No Accept-Ranges: the bytes sent are brotli's or gzip's, and a range of them is not what a range request gets.
      const body = await compressed.get(found.real, etag, encoding);
      response.writeHead(200, { 'Content-Encoding': encoding, 'Content-Length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    response.setHeader('Content-Length', found.info.size);
    response.setHeader('Accept-Ranges', 'bytes');
    if (request.method === 'HEAD') {
      response.writeHead(200).end();
      return;
    }
    response.writeHead(200);
    streamFile(found.real, response);
  };
}

/**
 * Sends a file as the response's body. pipeline, not pipe: when the visitor
 * hangs up, the file is closed too (pipe would leave it open). The file is
 * opened only once the response has the connection: a pipelined request
 * waits behind the ones before it, and when the client hangs up Node drops
 * those queued responses without closing them, so a file opened early would
 * stay open, with its buffered bytes, for good (issue 16: one descriptor and
 * tens of kilobytes per abandoned request). A large file sent compressed
 * goes through zlib on the way (compression.ts, MAX_BUFFERED_BYTES).
 */
function streamFile(file: string, response: http.ServerResponse, part?: { start: number; end: number }, compress?: { encoding: Encoding; size: number }): void {
  const send = () =>
    compress
      ? pipeline(createReadStream(file), compressingStream(compress.encoding, compress.size), response, () => {})
      : pipeline(createReadStream(file, part), response, () => {});
  if (response.socket) send();
  else response.once('socket', send);
}

/**
 * The site's 404 page with status 404, compressed like any page (every
 * mistyped URL gets it). A client that refuses every coding gets it as it
 * is: a 406 would hide that the page is missing.
 */
async function sendNotFound(root: string, request: http.IncomingMessage, response: http.ServerResponse, compressed: CompressionCache) {
  // Read at its real path, and only when that is inside the site: a link to a file outside would be every 404's body.
  const found = await fileInside(root, path.join(root, ERROR_PAGES.notFound.file));
  const info = found?.info;
  const file = found?.real ?? '';
  const type = 'text/html; charset=utf-8';
  const negotiated = info ? negotiateEncoding(request.headers, type, info.size) : undefined;
  const encoding = negotiated === 'identity' ? undefined : negotiated;
  const page = !info ? Buffer.from('Not Found\n') : encoding ? await compressed.get(file, `${info.size}-${info.mtimeMs}`, encoding) : await readFile(file);
  response.writeHead(404, {
    'Content-Type': type,
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding',
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
    'Content-Length': page.length,
  });
  response.end(request.method === 'HEAD' ? undefined : page);
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const root = path.resolve(options.root);
  const index = await stat(path.join(await servedRoot(root), 'index.html')).catch(() => undefined);
  if (!index) throw new FeltError('DIST_MISSING', `${root} holds no built site`, { hint: 'run `felt build` first (or `npm start`, which builds and serves)' });
  const handler = createHandler({ ...options, root });
  const server = http.createServer(SERVER_TIMEOUTS, (request, response) => {
    handler(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Internal Server Error\n');
    });
  });
  guardConnections(server);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new FeltError('PORT_IN_USE', `port ${options.port} on ${host} is already in use`, { hint: 'choose another with --port, or stop the other server' })
          : error,
      ),
    );
    server.listen(options.port ?? 8080, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
