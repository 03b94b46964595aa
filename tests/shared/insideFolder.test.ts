/**
 * shared/insideFolder.ts: the one "is this path inside that folder" every module asks (the server's request paths
 * and links, the build's writes, the content folder's links, --out against the content folder, displayPath).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside } from '../../shared/insideFolder.ts';
import { displayPath } from '../../shared/paths.ts';

describe('isInside', () => {
  it('takes what is below the folder, and the folder itself only when asked', () => {
    expect(isInside('/srv/site/index.html', '/srv/site')).toBe(true);
    expect(isInside('/srv/site/a/b/c.json', '/srv/site')).toBe(true);
    expect(isInside('/srv/site', '/srv/site')).toBe(false);
    expect(isInside('/srv/site', '/srv/site', { itself: true })).toBe(true);
  });

  it('refuses a sibling that shares the name as a prefix, a parent, and another tree', () => {
    expect(isInside('/srv/site-old/index.html', '/srv/site')).toBe(false);
    expect(isInside('/srv/siteindex.html', '/srv/site', { itself: true })).toBe(false);
    expect(isInside('/srv', '/srv/site', { itself: true })).toBe(false);
    expect(isInside('/etc/passwd', '/srv/site')).toBe(false);
  });

  it('counts a name that starts with two dots as inside (it is not the parent)', () => {
    expect(isInside('/srv/site/..hidden', '/srv/site')).toBe(true);
  });

  it('takes a folder with a trailing separator, the root above all', () => {
    expect(isInside('/srv', '/')).toBe(true);
    expect(isInside('/', '/')).toBe(false);
    expect(isInside('/', '/', { itself: true })).toBe(true);
    expect(isInside('/srv/site/a', '/srv/site/')).toBe(true);
  });

  it('compares names as they are: case counts, links are not followed', () => {
    expect(isInside('/srv/Site/index.html', '/srv/site')).toBe(false);
  });
});

describe('displayPath', () => {
  it('shows a path inside the working folder relative to it, and any other as given', () => {
    expect(displayPath(path.join(process.cwd(), 'content', 'site.json'))).toBe(path.join('content', 'site.json'));
    expect(displayPath(path.join(process.cwd(), '..cache', 'a.json'))).toBe(path.join('..cache', 'a.json'));
    expect(displayPath(process.cwd())).toBe(process.cwd());
    expect(displayPath('/elsewhere/site.json')).toBe('/elsewhere/site.json');
  });
});
