/**
 * /__third-party-proxy?url=… (SPEC section 7): fetches a third-party script
 * for the page, so it is served from the site's own origin. Only hosts on
 * the allowlist in site settings (proxy.allow), on their scheme's standard
 * port; never a private, loopback or link-local address, checked on the
 * address actually connected to (the DNS answer at connect time, not an
 * earlier lookup), and again on every redirect, which is followed by hand.
 * Size and time are capped. Whatever the status, only scripts, styles, data
 * and raster images are passed, never an answer that would widen a service
 * worker's scope, with caching felt decides; errors name no address and no
 * port state.
 */
import dns from 'node:dns';
import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import path from 'node:path';
import { readSiteSettings, SETTINGS_FILES } from '../../shared/settings.ts';
import { isBlockedAddress } from './proxyAddress.ts';

export const PROXY_PATH = '/__third-party-proxy';

type LookupAll = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

export interface ProxyOptions {
  /** Host names allowed, exactly (case-insensitive). */
  allow: string[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Resolves a host name to every address (tests give a fake DNS). */
  resolve?: LookupAll;
  /** Whether an address is refused (tests may open one loopback port). */
  isBlocked?: (address: string) => boolean;
  /** Ports allowed besides each scheme's standard one (tests open their loopback upstream's). */
  extraPorts?: number[];
}

class Refused extends Error {}
class Failed extends Error {
  constructor(
    message: string,
    readonly status: 502 | 504,
  ) {
    super(message);
  }
}

const systemResolve: LookupAll = (hostname, callback) => dns.lookup(hostname, { all: true, verbatim: true }, callback);

/**
 * The allowlist from content/site.json, read by the settings loader: none
 * (every host refused) when there is no site.json, as when a built site is
 * served alone; a ContentError naming each problem when site.json is invalid,
 * rather than a server that quietly refuses hosts the operator listed.
 */
export async function readProxyAllowlist(contentDir: string): Promise<string[]> {
  if (!existsSync(path.join(contentDir, SETTINGS_FILES.settings))) return [];
  return (await readSiteSettings(contentDir)).proxy.allow;
}

/** Each scheme's own port: an allowlisted host's other ports (admin panels, databases) serve no third-party scripts. */
const STANDARD_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };
/** How long a browser may keep a proxied answer: never longer than the third party says, at most a day. */
const DEFAULT_MAX_AGE = 300;
const LONGEST_MAX_AGE = 86_400;

/**
 * The Cache-Control felt sends with a proxied answer. The third party's own
 * header is read, never forwarded: a year-long `immutable` from a host that is
 * later fixed (or compromised) would pin its script on the site's origin.
 */
export function proxiedCacheControl(status: number, upstream: string | undefined): string {
  if (status < 200 || status >= 300) return 'no-store';
  const directives = (upstream ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  if (directives.some((directive) => directive === 'no-store' || directive === 'private' || directive.startsWith('private='))) return 'no-store';
  if (directives.includes('no-cache')) return 'no-cache';
  const maxAge = directives.map((directive) => /^max-age=(\d+)$/.exec(directive)?.[1]).find((seconds) => seconds !== undefined);
  return `public, max-age=${maxAge === undefined ? DEFAULT_MAX_AGE : Math.min(Number(maxAge), LONGEST_MAX_AGE)}`;
}

const PROXIED_TYPES =
  /^\s*((application|text)\/(javascript|ecmascript|x-javascript)|application\/(json|manifest\+json)|text\/css|image\/(png|gif|jpeg|webp|avif|x-icon))\s*(;|$)/i;

export function createProxyRoute(options: ProxyOptions) {
  const allow = new Set(options.allow.map((host) => host.toLowerCase().replace(/\.$/, '')));
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const resolve = options.resolve ?? systemResolve;
  const isBlocked = options.isBlocked ?? isBlockedAddress;
  const extraPorts = new Set(options.extraPorts ?? []);

  /** The URL if it may be fetched; otherwise Refused. */
  const check = (url: URL): URL => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refused('only http and https');
    if (url.username || url.password) throw new Refused('no credentials in the address');
    const standard = STANDARD_PORTS[url.protocol]!;
    const port = Number(url.port) || standard;
    if (port !== standard && !extraPorts.has(port)) throw new Refused('only port 80 for http and 443 for https');
    const host = url.hostname
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^\[|\]$/g, '');
    if (net.isIP(host) && isBlocked(host)) throw new Refused(`${host} is a private address`);
    if (!allow.has(host)) throw new Refused(`${host} is not on the proxy allowlist`);
    return url;
  };

  /** The connect-time DNS lookup: every answer is checked, so a rebinding DNS gains nothing. */
  const lookup = (hostname: string, opts: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error);
      const usable = addresses.filter((a) => !isBlocked(a.address));
      if (usable.length === 0 || usable.length !== addresses.length) return callback(new Refused(`${hostname} resolves to a private address`));
      if (opts.all) callback(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    });
  };

  const fetchOnce = (url: URL, signal: AbortSignal) =>
    new Promise<http.IncomingMessage>((done, fail) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.get(url, { lookup: lookup as never, signal, headers: { 'User-Agent': 'felt-third-party-proxy', Accept: '*/*' } }, done);
      request.on('error', fail);
    });

  const readCapped = (response: http.IncomingMessage) =>
    new Promise<Buffer>((done, fail) => {
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        response.destroy();
        return fail(new Failed('the answer is too large', 502));
      }
      const parts: Buffer[] = [];
      let size = 0;
      response.on('data', (part: Buffer) => {
        size += part.length;
        if (size > maxBytes) {
          response.destroy();
          fail(new Failed('the answer is too large', 502));
        } else parts.push(part);
      });
      response.on('end', () => done(Buffer.concat(parts)));
      response.on('error', fail);
    });

  const fetchFollowing = async (start: URL, signal: AbortSignal) => {
    let url = check(start);
    for (let hop = 0; ; hop++) {
      const response = await fetchOnce(url, signal);
      const location = response.headers.location;
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.resume();
        if (hop >= maxRedirects) throw new Failed('too many redirects', 502);
        url = check(new URL(location, url));
        continue;
      }
      return { response, body: await readCapped(response) };
    }
  };

  return async (request: http.IncomingMessage, response: http.ServerResponse): Promise<boolean> => {
    // A request target no URL parser takes (`GET http://[ HTTP/1.1`) is not this
    // route's: the file handler answers it with 400, not the server with 500.
    let requestUrl: URL;
    try {
      requestUrl = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      return false;
    }
    if (requestUrl.pathname !== PROXY_PATH) return false;
    const send = (status: number, text: string) =>
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`${text}\n`);
    let target: URL;
    try {
      target = new URL(requestUrl.searchParams.get('url') ?? '');
    } catch {
      send(400, 'Bad Request: url must be an absolute address');
      return true;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const { response: upstream, body } = await fetchFollowing(target, controller.signal);
      const status = upstream.statusCode ?? 502;
      const type = upstream.headers['content-type'] ?? '';
      // The answer is served from the site's own origin: a page or an SVG from a
      // third party would run with the site's rights, and an error page is a
      // page too. Scripts, styles, data and raster images only, whatever the status.
      if (!PROXIED_TYPES.test(type)) {
        send(502, `Bad Gateway: the proxy passes scripts, styles, JSON and images, not "${type.split(';')[0]!.trim() || 'untyped'}"`);
        return true;
      }
      // A script served with this header could be registered as a service worker
      // for the whole site, and answer for every page from then on.
      if (upstream.headers['service-worker-allowed'] !== undefined) {
        send(502, "Bad Gateway: the proxy does not pass an answer that widens a service worker's scope");
        return true;
      }
      response.writeHead(status, {
        'Content-Type': type,
        'Cache-Control': proxiedCacheControl(status, upstream.headers['cache-control']),
        'Content-Length': body.length,
        'X-Content-Type-Options': 'nosniff',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      if (error instanceof Refused || (error as { cause?: unknown }).cause instanceof Refused) send(403, `Forbidden: ${(error as Error).message}`);
      else if (controller.signal.aborted) send(504, 'Gateway Timeout');
      else if (error instanceof Failed) send(error.status, `Bad Gateway: ${error.message}`);
      // Node's own message names the address connected to and how it failed
      // (ECONNREFUSED 203.0.113.7:443): nothing of that leaves the server.
      else send(502, 'Bad Gateway: the third party could not be reached');
    } finally {
      clearTimeout(timer);
    }
    return true;
  };
}
