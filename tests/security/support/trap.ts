/**
 * The browser side of the script-injection tests: a trap installed before any
 * page script runs, and an audit of the rendered DOM for anything that could
 * run script later (a handler attribute, a javascript: link, a foreign
 * element), so a vector that needs a click or a hover is caught too.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { META_CONTENT_SECURITY_POLICY } from '../../../site/render/securityPolicy.ts';
import { TRAP } from '../../fixtures/security/xssVectors.ts';

export interface Hit {
  url: string;
  what: string;
}

/**
 * Runs in every frame before the page's own scripts: the trap function the
 * payloads call, dialogs, and (where a CSP is sent) script-src violations,
 * which mean the markup tried to run inline script and only the CSP stopped it.
 */
const TRAP_SCRIPT = `(() => {
  const report = (what) => { try { window.__felt_report(String(what)); } catch { try { parent.__felt_report(String(what)); } catch {} } };
  Object.defineProperty(window, ${JSON.stringify(TRAP)}, { value: (n) => report('executed vector ' + n), writable: false, configurable: false });
  for (const name of ['alert', 'confirm', 'prompt', 'print']) {
    Object.defineProperty(window, name, { value: (...args) => report(name + '(' + args.join(',') + ')'), writable: false, configurable: false });
  }
  document.addEventListener('securitypolicyviolation', (event) => {
    const directive = event.effectiveDirective || event.violatedDirective;
    if (/^(script|object|frame|child|base|form|navigate)/.test(directive)) report('CSP blocked ' + directive + ' ' + (event.blockedURI || '') + ' ' + (event.sample || ''));
  }, true);
})();`;

export async function installTrap(context: BrowserContext, hits: Hit[]): Promise<void> {
  await context.exposeBinding('__felt_report', (source, what: string) => {
    hits.push({ url: source.page?.url() ?? '?', what });
  });
  await context.addInitScript(TRAP_SCRIPT);
}

export function watchDialogs(page: Page, hits: Hit[]): void {
  page.on('dialog', (dialog) => {
    hits.push({ url: page.url(), what: `dialog ${dialog.type()}: ${dialog.message()}` });
    void dialog.dismiss().catch(() => undefined);
  });
}

/**
 * Everything in the DOM that could run script: handler attributes, URLs
 * whose scheme is not http(s) or mailto (resolved by the browser, so entity
 * and whitespace tricks are seen as the browser sees them), and elements
 * a page of this site never contains.
 */
export function auditDom(page: Page): Promise<string[]> {
  return page.evaluate((sitePolicy) => {
    const problems: string[] = [];
    // The site's own policy, the one <meta http-equiv> a page has: the first of its head's after the charset.
    const ownPolicy = document.head.querySelector(':scope > meta[charset] + meta[http-equiv]');
    // (An answer that is not HTML, the server's "Bad Request" text among them, has no head of the site's to check.)
    const policyMissing = ownPolicy?.getAttribute('http-equiv') !== 'Content-Security-Policy' || ownPolicy.getAttribute('content') !== sitePolicy;
    if (document.contentType === 'text/html' && policyMissing) problems.push("the page does not open with the site's Content-Security-Policy <meta>");
    const FORBIDDEN = new Set([
      'iframe',
      'frame',
      'frameset',
      'object',
      'embed',
      'applet',
      'base',
      'portal',
      'svg',
      'math',
      'template',
      'style',
      'xmp',
      'plaintext',
      'noscript',
      'video',
      'audio',
      'source',
      'marquee',
      'details',
      'textarea',
      'select',
      'option',
      'isindex',
      'keygen',
      'picture',
      'foreignobject',
      'animate',
      'set',
      'mglyph',
      'maction',
    ]);
    const URL_ATTRIBUTES = [
      'href',
      'src',
      'action',
      'formaction',
      'data',
      'xlink:href',
      'poster',
      'background',
      'ping',
      'lowsrc',
      'dynsrc',
      'codebase',
      'cite',
      'longdesc',
      'manifest',
      'icon',
    ];
    const SAFE_LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
    // prefetch: the runtime warms the cache with the islands' own chunks once a page has loaded (site/client/runtime/wake.ts).
    const LINK_RELS = new Set(['stylesheet', 'icon', 'apple-touch-icon', 'canonical', 'alternate', 'preload', 'modulepreload', 'prefetch']);
    const describe = (el: Element) => el.outerHTML.slice(0, 160);
    // felt's own covers (site/components/CoverImage.tsx): a provider picture's <picture> of its class whose sources
    // list only this site's /images/covers/ files, or a generated cover's SVG <img> (ownSvgCover). Content never
    // makes one (raw HTML is escaped); one that strays is reported.
    const covers = new Set<Element>();
    const ownCover = (url: string) => {
      const parsed = new URL(url, location.href);
      return parsed.origin === location.origin && parsed.pathname.startsWith('/images/covers/');
    };
    const ownSvgCover = (img: HTMLImageElement) => {
      const parsed = new URL(img.src, location.href);
      const box = img.parentElement;
      return (
        parsed.origin === location.origin &&
        /^\/images\/covers\/(?:[a-z0-9-]+\/)?[a-z0-9-]+\.svg$/.test(parsed.pathname) &&
        !parsed.search &&
        box?.matches('div.card-cover, div.article-cover') === true &&
        box.children.length === 1
      );
    };
    for (const picture of Array.from(document.querySelectorAll('picture.card-cover, picture.article-cover'))) {
      const sources = Array.from(picture.querySelectorAll('source'));
      const urls = sources.flatMap((source) => (source.getAttribute('srcset') ?? '').split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!));
      if (picture.children.length === sources.length + 1 && urls.length && urls.every(ownCover)) [picture, ...sources].forEach((el) => covers.add(el));
    }
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      // felt's own Categories menu is a <details> (issue 18, item 5): that one element, in the header, is expected;
      // any other <details> is a payload's (handler attributes on it are audited below either way).
      const feltsMenu = tag === 'details' && el.matches('#site-header > .header-bar > details.category-menu');
      if (FORBIDDEN.has(tag) && !feltsMenu && !covers.has(el)) problems.push(`element <${tag}>: ${describe(el)}`);
      if (tag === 'script') {
        const type = el.getAttribute('type');
        const src = (el as HTMLScriptElement).src;
        if (type === 'module' && src && new URL(src).origin === location.origin && el.textContent === '') continue;
        if (type === 'application/ld+json') {
          try {
            JSON.parse(el.textContent ?? '');
          } catch {
            problems.push(`JSON-LD does not parse: ${describe(el)}`);
          }
          continue;
        }
        problems.push(`script: ${describe(el)}`);
      }
      if (tag === 'meta' && el.hasAttribute('http-equiv') && el !== ownPolicy) problems.push(`meta http-equiv: ${describe(el)}`);
      if (
        tag === 'link' &&
        !String(el.getAttribute('rel'))
          .split(/\s+/)
          .every((rel) => LINK_RELS.has(rel))
      )
        problems.push(`link: ${describe(el)}`);
      if (tag === 'img' && new URL((el as HTMLImageElement).src, location.href).origin !== location.origin) problems.push(`foreign image: ${describe(el)}`);
      // An SVG shown as an <img> runs no script, but the only one a page of this site holds is felt's own generated
      // cover (site/components/CoverImage.tsx): this site's /images/covers/{category}/{subcategory}-{n}.svg or, for an
      // article filed nowhere, /images/covers/{slug}.svg, alone in a cover's box.
      if (tag === 'img' && /\.svg$/i.test(new URL((el as HTMLImageElement).src, location.href).pathname) && !ownSvgCover(el as HTMLImageElement))
        problems.push(`SVG image: ${describe(el)}`);
      for (const attribute of Array.from(el.attributes)) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) problems.push(`handler ${name}: ${describe(el)}`);
        if (name === 'srcdoc' || (name === 'srcset' && !covers.has(el))) problems.push(`${name}: ${describe(el)}`);
        if (name === 'style' && /url\(|expression|javascript/i.test(attribute.value)) problems.push(`style: ${describe(el)}`);
        if (URL_ATTRIBUTES.includes(name)) {
          let scheme: string;
          try {
            scheme = new URL(attribute.value, location.href).protocol;
          } catch {
            continue;
          }
          if (!SAFE_LINK_SCHEMES.has(scheme)) problems.push(`${name} with ${scheme}: ${describe(el)}`);
        }
      }
    }
    return problems;
  }, META_CONTENT_SECURITY_POLICY);
}
