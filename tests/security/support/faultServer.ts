/**
 * A server on 127.0.0.1 that fails in every way a storage API or an LLM
 * endpoint can, chosen by the first path segment (point a base URL or a
 * storage endpoint at `${url}/{mode}`):
 *
 *   reset    the connection is dropped before any answer
 *   hang     the request is read and never answered
 *   500      HTTP 500 forever (Retry-After 0, so clients retry at once)
 *   503      HTTP 503 forever
 *   401      HTTP 401, echoing the credentials it was sent, as real APIs do
 *   garbage  HTTP 200 with a body that is not what was asked for
 *
 * Every failing answer echoes the Authorization header back, so a test can
 * tell whether a client prints what a server says about its key.
 */
import http from 'node:http';
import { listenOnLoopback } from '../../support/loopback.ts';

export interface FaultServer {
  url: string;
  /** Authorization headers received, for tests that check a key was sent at all. */
  authorizations: string[];
  close(): Promise<void>;
}

export async function startFaultServer(): Promise<FaultServer> {
  const authorizations: string[] = [];
  const server = http.createServer((request, response) => {
    const mode = (request.url ?? '/').split('/')[1] ?? '';
    const auth = String(request.headers.authorization ?? '');
    if (auth) authorizations.push(auth);
    request.resume();
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    switch (mode) {
      case 'reset':
        request.socket.destroy();
        return;
      case 'hang':
        return;
      case '500':
        return json(
          500,
          { error: { code: 500, message: `backend error while serving ${auth}`, type: 'server_error' } },
          { 'Retry-After': '0', 'retry-after-ms': '0' },
        );
      case '503':
        return json(503, { error: { code: 503, message: `unavailable for ${auth}`, type: 'server_error' } }, { 'Retry-After': '0', 'retry-after-ms': '0' });
      case '401':
        return json(401, { error: { code: 401, message: `Incorrect API key provided: ${auth.replace(/^Bearer /, '')}`, type: 'invalid_request_error' } });
      case 'garbage':
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"not": "what you asked for", "auth": "${auth}"`);
        return;
      default:
        return json(404, { error: { code: 404, message: 'no such mode' } });
    }
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, authorizations, close };
}
