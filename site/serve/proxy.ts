/**
 * /__third-party-proxy?url=… (SPEC section 7): fetches a third-party script
 * for the page, so it is served from the site's own origin. Only hosts on
 * the allowlist in site settings (proxy.allow); never a private, loopback
 * or link-local address, checked on the address actually connected to
 * (the DNS answer at connect time, not an earlier lookup), and again on
 * every redirect, which is followed by hand. Size and time are capped.
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
}

class Refused extends Error {}
class Failed extends Error {
  constructor(message: string, readonly status: 502 | 504) {
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

const PROXIED_TYPES = /^\s*((application|text)\/(javascript|ecmascript|x-javascript)|application\/(json|manifest\+json)|text\/css|image\/(png|gif|jpeg|webp|avif|x-icon))\s*(;|$)/i;

export function createProxyRoute(options: ProxyOptions) {
  const allow = new Set(options.allow.map((host) => host.toLowerCase().replace(/\.$/, '')));
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const resolve = options.resolve ?? systemResolve;
  const isBlocked = options.isBlocked ?? isBlockedAddress;

  /** The URL if it may be fetched; otherwise Refused. */
  const check = (url: URL): URL => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refused('only http and https');
    if (url.username || url.password) throw new Refused('no credentials in the address');
    const host = url.hostname.toLowerCase().replace(/\.$/, '').replace(/^\[|\]$/g, '');
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
    const requestUrl = new URL(request.url ?? '/', 'http://localhost');
    if (requestUrl.pathname !== PROXY_PATH) return false;
    const send = (status: number, text: string) => response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`${text}\n`);
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
      const type = upstream.headers['content-type'] ?? '';
      // The answer is served from the site's own origin: a page or an SVG from a
      // third party would run with the site's rights. Scripts, styles, data and
      // raster images only.
      if ((upstream.statusCode ?? 502) < 300 && !PROXIED_TYPES.test(type)) {
        send(502, `Bad Gateway: the proxy passes scripts, styles, JSON and images, not "${type.split(';')[0] || 'untyped'}"`);
        return true;
      }
      response.writeHead(upstream.statusCode ?? 502, {
        'Content-Type': type || 'application/octet-stream',
        'Cache-Control': upstream.headers['cache-control'] ?? 'public, max-age=300',
        'Content-Length': body.length,
        'X-Content-Type-Options': 'nosniff',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      if (error instanceof Refused || (error as { cause?: unknown }).cause instanceof Refused) send(403, `Forbidden: ${(error as Error).message}`);
      else if (controller.signal.aborted) send(504, 'Gateway Timeout');
      else send(error instanceof Failed ? error.status : 502, `Bad Gateway: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    return true;
  };
}
