/**
 * `felt serve` honours the site's `_redirects` file (the format Netlify and
 * similar hosts read: `from to status`, one rule a line, `#` comments), so
 * the operator sees what a retracted article's old address answers before
 * deploying: 301 with Location for a redirect, and 410 with the gone page
 * for an article taken back (site/render/retractedPages.ts). Only exact
 * paths are matched (felt writes no wildcards); a trailing slash is ignored.
 */
import { readFile, stat } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { isInside } from '../../shared/insideFolder.ts';
import { isSitePath } from '../../shared/retraction.ts';
import { fileInside } from './resolvePath.ts';

export interface RedirectRule {
  to: string;
  status: number;
}

const cache = new Map<string, { mtimeMs: number; rules: Map<string, RedirectRule> }>();

export function parseRedirects(text: string): Map<string, RedirectRule> {
  const rules = new Map<string, RedirectRule>();
  for (const line of text.split('\n')) {
    const [from, to, status] = line.trim().split(/\s+/);
    if (!from || !to || from.startsWith('#')) continue;
    const code = Number((status ?? '301').replace(/!$/, ''));
    const key = normalise(from);
    if (Number.isInteger(code) && !rules.has(key)) rules.set(key, { to, status: code });
  }
  return rules;
}

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

async function rulesOf(root: string): Promise<Map<string, RedirectRule> | undefined> {
  const file = path.join(root, '_redirects');
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const known = cache.get(file);
  if (known?.mtimeMs === info.mtimeMs) return known.rules;
  const rules = parseRedirects(await readFile(file, 'utf8'));
  cache.set(file, { mtimeMs: info.mtimeMs, rules });
  return rules;
}

/** Answers the request from a `_redirects` rule; false when no rule matches. */
export async function answerFromRedirects(root: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<boolean> {
  const rules = await rulesOf(root);
  if (!rules?.size) return false;
  let pathname: string;
  try {
    pathname = decodeURIComponent((request.url ?? '/').split('?')[0]!.split('#')[0]!);
  } catch {
    return false;
  }
  const rule = rules.get(normalise(pathname));
  if (!rule) return false;
  if (rule.status >= 300 && rule.status < 400) {
    response.writeHead(rule.status, { Location: rule.to, 'Cache-Control': 'no-cache', 'Content-Length': 0 }).end();
    return true;
  }
  if ((rule.status === 410 || rule.status === 404) && isSitePath(rule.to)) {
    const file = path.resolve(root, `.${rule.to}`);
    if (!isInside(file, root)) return false;
    // Its real path, links resolved, must be inside the site's too (resolvePath.ts fileInside).
    const page = await fileInside(root, file);
    const body = (page && (await readFile(page.real).catch(() => undefined))) ?? Buffer.from(rule.status === 410 ? 'Gone\n' : 'Not Found\n');
    response.writeHead(rule.status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  }
  return false;
}
