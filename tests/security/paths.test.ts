/**
 * Issue 6, item 2: a path never escapes its folder.
 *
 * Slugs become file and folder names in dist/ (articles/{slug}/index.html,
 * {category}/{child}/, authors/{slug}/), so every slug that tries to climb
 * out, hide a separator or smuggle a NUL is refused by validation with a
 * message naming the file and the field. felt serve never reads outside its
 * root, in raw or encoded forms, nor through a symbolic link inside it.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { startServer, type RunningServer } from '../../site/serve/server.ts';
import { FIXTURE_SITE, contentProblems, fixtureCopy, tempDir } from '../site/helpers.ts';
import { httpRequest } from '../support/httpRequest.ts';
import { yamlString } from './support/xssSite.ts';

/** Slugs that try to leave their folder, in every shape we know. */
export const ESCAPING_SLUGS: readonly string[] = [
  '../escape',
  '../../../../etc/passwd',
  '..',
  '.',
  '/etc/passwd',
  '/absolute',
  'C:\\Windows\\win.ini',
  'c:/windows',
  '..\\..\\escape',
  'a\\b',
  'a/b',
  'a/../../b',
  '%2e%2e%2fescape',
  '%2e%2e',
  '%252e%252e%252fescape',
  '..%2f..%2fescape',
  '..%5cescape',
  '%c0%ae%c0%ae/escape',
  '\u2024\u2024/escape',
  '\uFF0E\uFF0E\uFF0Fescape',
  '\u2215escape',
  '\u2044escape',
  '\uFF3Cescape',
  'esc\u0000ape',
  'escape\u0000.md',
  '~/escape',
  'escape/',
  ' escape',
  'escape\n',
  'ESCAPE',
  'e\u0301scape',
  '\u0435scape',
  'file:escape',
  '-escape',
  'escape-',
  'esc--ape',
];

const problemsOf = contentProblems;

const SLUG_MESSAGE = /must be lowercase ASCII kebab-case/;

describe('slugs that try to escape are refused by validation', () => {
  it(`article slugs (${ESCAPING_SLUGS.length} shapes), each named with file, line and field`, async () => {
    const files: Record<string, string> = {};
    ESCAPING_SLUGS.forEach((slug, i) => {
      files[`articles/en_US/attack-${i}.md`] =
        `---\ntitle: Attack ${i}\nslug: ${yamlString(slug)}\ndescription: An attack.\nauthor: Mara Lindqvist\ndate: 2026-01-01\nlocale: en_US\ntranslationKey: ${yamlString(slug)}\nentities:\n  - category: bettingStrategies\n---\nBody.\n`;
    });
    const problems = await problemsOf(await fixtureCopy(files));
    ESCAPING_SLUGS.forEach((slug, i) => {
      const mine = problems.filter((p) => p.includes(`attack-${i}.md:`));
      expect(
        mine.find((p) => /:3 field "slug": slug must be lowercase ASCII kebab-case/.test(p)),
        `slug ${JSON.stringify(slug)}`,
      ).toBeDefined();
      expect(
        mine.find((p) => /field "translationKey": translationKey must be lowercase ASCII kebab-case/.test(p)),
        `translationKey ${JSON.stringify(slug)}`,
      ).toBeDefined();
    });
  });

  it('category and subcategory slugs', async () => {
    const dir = await fixtureCopy();
    const categories = JSON.parse(await readFile(path.join(dir, 'categories.json'), 'utf8'));
    const child = categories.bettingStrategies.children.other;
    ESCAPING_SLUGS.forEach((slug, i) => {
      categories[`attack${i}`] = { slug, title: { en: 'Attack' }, description: { en: 'Attack' }, children: { other: { ...child, slug } } };
    });
    await writeFile(path.join(dir, 'categories.json'), JSON.stringify(categories));
    const problems = (await problemsOf(dir)).filter((p) => p.includes('categories.json'));
    ESCAPING_SLUGS.forEach((slug, i) => {
      expect(
        problems.find((p) => p.includes(`field "attack${i}.slug"`) && SLUG_MESSAGE.test(p)),
        `category slug ${JSON.stringify(slug)}`,
      ).toBeDefined();
      expect(
        problems.find((p) => p.includes(`field "attack${i}.children.other.slug"`) && SLUG_MESSAGE.test(p)),
        `child slug ${JSON.stringify(slug)}`,
      ).toBeDefined();
    });
  });

  it('author slugs', async () => {
    const dir = await fixtureCopy();
    const authors = JSON.parse(await readFile(path.join(dir, 'authors.json'), 'utf8')) as unknown[];
    const first = authors.length;
    ESCAPING_SLUGS.forEach((slug, i) => authors.push({ name: `Attacker ${i}`, slug, description: 'Bio.', meta_title: 'T', meta_description: 'D' }));
    await writeFile(path.join(dir, 'authors.json'), JSON.stringify(authors));
    const problems = (await problemsOf(dir)).filter((p) => p.includes('authors.json'));
    ESCAPING_SLUGS.forEach((slug, i) => {
      expect(
        problems.find((p) => p.includes(`field "${first + i}.slug"`) && SLUG_MESSAGE.test(p)),
        `author slug ${JSON.stringify(slug)}`,
      ).toBeDefined();
    });
  });

  it('the brand (it names the logo file) and the storage prefix (it names buckets)', async () => {
    const dir = await fixtureCopy();
    const settings = JSON.parse(await readFile(path.join(dir, 'site.json'), 'utf8'));
    settings.brand = '../../escape';
    settings.storage.prefix = '../bucket';
    await writeFile(path.join(dir, 'site.json'), JSON.stringify(settings));
    const problems = await problemsOf(dir);
    expect(problems.find((p) => p.includes('field "brand"') && SLUG_MESSAGE.test(p))).toBeDefined();
    expect(problems.find((p) => p.includes('field "storage.prefix"') && SLUG_MESSAGE.test(p))).toBeDefined();
  });
});

describe('felt serve never reads outside its root', () => {
  let server: RunningServer;
  let base: string;
  let root: string;

  /** A raw request over a socket: the path goes out byte for byte, as an attacker would send it. */
  function rawGet(pathname: string): Promise<{ status: number; body: string }> {
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          Buffer.concat([Buffer.from('GET '), Buffer.from(pathname, 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')]),
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
        resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
      });
    });
  }

  beforeAll(async () => {
    base = await tempDir('felt-paths-');
    root = path.join(base, 'dist');
    await buildSite({ contentDir: FIXTURE_SITE, outDir: root });
    await writeFile(path.join(base, 'secret.txt'), 'TOP-SECRET');
    await mkdir(path.join(base, 'outside'), { recursive: true });
    await writeFile(path.join(base, 'outside', 'index.html'), 'OUTSIDE-SITE');
    // Links inside dist/ that point out of it: a file, a folder, and one through a relative path.
    await symlink(path.join(base, 'secret.txt'), path.join(root, 'leak.txt'));
    await symlink(path.join(base, 'outside'), path.join(root, 'leak-dir'));
    await symlink('../../secret.txt', path.join(root, 'articles', 'leak-relative.txt'));
    await symlink('/etc', path.join(root, 'etc'));
    // A link that stays inside the site is harmless and still served.
    await symlink(path.join(root, 'robots.txt'), path.join(root, 'robots-copy.txt'));
    server = await startServer({ root, port: 0 });
  });

  afterAll(() => server?.close());

  it.each(['/leak.txt', '/leak-dir/', '/leak-dir/index.html', '/leak-dir', '/articles/leak-relative.txt', '/etc/passwd', '/etc/hostname', '/%6ceak.txt'])(
    'does not follow the symbolic link in %s out of the site',
    async (attack) => {
      const response = await rawGet(attack);
      expect([400, 403, 404]).toContain(response.status);
      expect(response.body).not.toContain('TOP-SECRET');
      expect(response.body).not.toContain('OUTSIDE-SITE');
      expect(response.body).not.toContain('root:');
    },
  );

  it('still serves a link that stays inside the site', async () => {
    const response = await rawGet('/robots-copy.txt');
    expect(response.status).toBe(200);
    expect(response.body).toContain('Sitemap');
  });

  it.each([
    '/..%2f..%2fsecret.txt',
    '/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/%252e%252e%252fsecret.txt',
    '/..%255csecret.txt',
    '/.%2e/secret.txt',
    '/%2e./secret.txt',
    '/articles/%2e%2e/%2e%2e/secret.txt',
    '/..;/secret.txt',
    '/%C0%AE%C0%AE%C0%AFsecret.txt',
    '/%uff0e%uff0e/secret.txt',
    '/\uFF0E\uFF0E/secret.txt',
    '//..//..//secret.txt',
    '/.../secret.txt',
    '/secret.txt%00',
    '/%00/../secret.txt',
    '/articles/%2F..%2F..%2Fsecret.txt',
    `/${'../'.repeat(30)}etc/passwd`,
    '/%ZZ',
    '/%',
    'secret.txt',
    '*',
    'http://127.0.0.1/../secret.txt',
  ])('answers %s with 400 or 404 and nothing from outside', async (attack) => {
    const response = await rawGet(attack);
    expect([400, 404]).toContain(response.status);
    expect(response.body).not.toContain('TOP-SECRET');
    expect(response.body).not.toContain('root:');
  });
});

describe('felt serve does not answer a missing or retracted page with a file outside its root', () => {
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    base = await tempDir('felt-paths-pages-');
    const root = path.join(base, 'dist');
    await buildSite({ contentDir: FIXTURE_SITE, outDir: root });
    await writeFile(path.join(base, 'secret.txt'), 'TOP-SECRET');
    // The pages every missing and every retracted address is answered with, as links out of the site.
    await rm(path.join(root, '404.html'));
    await symlink(path.join(base, 'secret.txt'), path.join(root, '404.html'));
    await mkdir(path.join(root, 'gone'), { recursive: true });
    await symlink(path.join(base, 'secret.txt'), path.join(root, 'gone', 'old-article.html'));
    await writeFile(path.join(root, '_redirects'), '/articles/old-article /gone/old-article.html 410\n');
    server = await startServer({ root, port: 0 });
  });

  afterAll(() => server?.close());

  it.each([
    ['/no-such-page', 404],
    ['/articles/old-article', 410],
  ])('answers %s with %i and without the linked file', async (pathname, status) => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const answer = await httpRequest(server.url, pathname, { 'Accept-Encoding': encoding });
      expect(answer.status, encoding).toBe(status);
      expect(answer.body.toString('latin1'), encoding).not.toContain('TOP-SECRET');
    }
  });
});
