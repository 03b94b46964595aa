import { describe, expect, it } from 'vitest';
import { sanitizeAdHtml, sponsoredHeading, sponsoredHeadingIndex, sponsoredLinksFor } from '../../site/render/sponsored.ts';

describe('sponsored heading', () => {
  it('gives each page path its own fixed phrase', () => {
    // Expected phrases from FNV-1a of each path, computed independently of felt
    // (Python's reference implementation), so a change of hash or order fails here.
    const expected: Record<string, string> = {
      '/': 'Recommended Sites',
      '/articles/a': 'Partner Links',
      '/articles/b': 'Sponsored Links',
      '/game-rules': 'Recommended Sites',
      '/authors': 'Recommended Sites',
      '/betting-strategies/page/2': 'Sponsored Links',
    };
    for (const [path, phrase] of Object.entries(expected)) expect(sponsoredHeading(path), path).toBe(phrase);
  });

  it('spreads pages over all four phrases', () => {
    const seen = new Set(Array.from({ length: 64 }, (_, i) => sponsoredHeadingIndex(`/articles/article-${i}`)));
    expect(seen.size).toBe(4);
  });

  it('is a stable hash, not one that changes between runs', () => {
    // FNV-1a of "/" (shared/hash.ts), computed independently with the reference algorithm.
    expect(sponsoredHeadingIndex('/')).toBe(0x2a0c975e % 4);
  });
});

describe('ad HTML sanitising', () => {
  it('keeps links and inline text, marks links sponsored', () => {
    expect(sanitizeAdHtml('<a href="https://odds.example/" rel="dofollow" target="_self">Odds <b>now</b></a> compare')).toBe(
      '<a href="https://odds.example/" rel="sponsored noopener" target="_blank">Odds <b>now</b></a> compare',
    );
  });

  it('drops scripts, handlers, javascript: links and other tags', () => {
    const out = sanitizeAdHtml(
      '<a href="javascript:alert(1)">x</a><script>alert(1)</script><img src=x onerror=alert(1)><a href="https://a.example" onclick="alert(1)">ok</a><svg><script>alert(1)</script></svg><style>*{}</style>',
    );
    expect(out).not.toMatch(/script|onerror|onclick|javascript|<img|<svg|<style/i);
    expect(out).toContain('<a href="https://a.example" rel="sponsored noopener" target="_blank">ok</a>');
  });

  it('caps the list and skips entries with no link left', () => {
    const links = { '/': ['<a href="https://a.example">a</a>', '<img src=x>', '<a href="https://b.example">b</a>', '<a href="https://c.example">c</a>'] };
    expect(sponsoredLinksFor(links, '/', 2)).toHaveLength(2);
    expect(sponsoredLinksFor(links, '/')).toHaveLength(3);
    expect(sponsoredLinksFor(links, '/nothing')).toEqual([]);
    expect(sponsoredLinksFor(links, '__proto__')).toEqual([]);
  });
});
