/**
 * Issue 13: a command loads only what it needs. The compiled CLI (lib/, run
 * `npm run compile` first) is started with a module hook that notes every
 * package it imports: `felt --version` needs commander alone, `felt build`
 * none of the servers', the watcher's or the storage and provider clients',
 * sharp only when it draws a picture, React with require(), not
 * through the ES module loader, and zod bundled into felt's own chunks.
 * At 1,000 articles a build is over in about two seconds, so a start that
 * loaded every command's packages (half a second) was a quarter of it.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startFakeGcs } from '../support/fakeGcs.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';

const FELT = new URL('../../bin/felt.js', import.meta.url).pathname;
const run = promisify(execFile);

/**
 * The package a module loaded by the compiled CLI belongs to: from its path under node_modules, or
 * @google-cloud/storage for the chunk scripts/compile.mjs bundles the GCS client into (cli/storage/gcsClient.ts).
 */
function packageOfUrl(url: string): string | undefined {
  if (/\/lib\/chunks\/gcsClient-[^/]*\.js$/.test(url)) return '@google-cloud/storage';
  return /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
}

/** The packages (by package name) whose modules the compiled CLI imports when run with `args`. */
async function packagesLoaded(args: string[]): Promise<string[]> {
  const dir = await tempDir();
  const log = path.join(dir, 'packages.log');
  await writeFile(log, '');
  // The hooks run on their own thread: the URL of each module resolved is appended to the log.
  await writeFile(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}`,
  );
  await writeFile(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });`,
  );
  await run(process.execPath, ['--import', pathToFileURL(path.join(dir, 'register.mjs')).href, FELT, ...args], { cwd: dir });
  const names = (await readFile(log, 'utf8')).split('\n').map(packageOfUrl);
  return [...new Set(names.filter((name): name is string => Boolean(name)))].sort();
}

/**
 * The packages whose files the compiled CLI has loaded by the time it exits: CommonJS packages (yaml,
 * esbuild) loaded by import or require alike sit in the module cache, which a preload lists at exit.
 */
async function packagesInModuleCache(args: string[], cwd: string): Promise<string[]> {
  const dir = await tempDir();
  const log = path.join(dir, 'cache.log');
  await writeFile(
    path.join(dir, 'preload.cjs'),
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, Object.keys(require('node:module')._cache).join('\\n')));`,
  );
  await run(process.execPath, ['--require', path.join(dir, 'preload.cjs'), FELT, ...args], { cwd });
  const names = (await readFile(log, 'utf8')).split('\n').map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]);
  return [...new Set(names.filter((name): name is string => Boolean(name)))].sort();
}

const NOT_FOR_BUILDING = ['@google-cloud/storage', 'openai', 'chokidar', 'negotiator', 'fresh', 'mime-types', 'franc-min'];

describe('what a command loads', () => {
  it('felt --version loads commander alone', async () => {
    expect(await packagesLoaded(['--version'])).toEqual(['commander']);
  });

  it("felt build loads the site's packages, and no server, watcher or storage or provider client", async () => {
    const content = await fixtureCopy();
    const out = path.join(path.dirname(content), 'dist');
    const loaded = await packagesLoaded(['build', '--content', content, '--out', out, '--no-incremental']);
    expect(loaded).toEqual(expect.arrayContaining(['commander']));
    // zod is bundled (scripts/compile.mjs, BUNDLED): through the ES module loader its 91 files took the build's
    // thread 20 ms of CPU more to start.
    expect(loaded).not.toContain('zod');
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<!doctype html>');
    // React renders the pages, loaded with require() and not through the ES module loader, which read and scanned
    // React's development build too for its export names (scripts/compile.mjs, REQUIRED).
    expect(loaded.filter((name) => ['react', 'react-dom', 'jsonc-parser'].includes(name))).toEqual([]);
    const required = await packagesInModuleCache(
      ['build', '--content', content, '--out', path.join(path.dirname(content), 'again'), '--no-incremental'],
      path.dirname(content),
    );
    expect(required).toEqual(expect.arrayContaining(['react', 'react-dom', 'jsonc-parser']));
    expect(loaded.filter((name) => NOT_FOR_BUILDING.includes(name))).toEqual([]);
    // A cold build draws its share cards on a thread of their own (site/pictures/earlyCards.ts): sharp (libvips) is
    // loaded there, never on the build's thread, and the cards are in the release.
    expect(loaded).not.toContain('sharp');
    const cards = (await readdir(path.join(out, 'images', 'cards'), { recursive: true })).filter((name) => String(name).endsWith('.jpg'));
    expect(cards.length).toBeGreaterThan(0);
  });

  it('a build whose pictures are all in the image cache never loads sharp', async () => {
    const content = await fixtureCopy();
    const root = path.dirname(content);
    await packagesLoaded(['build', '--content', content, '--out', path.join(root, 'first'), '--no-incremental']);
    const again = await packagesLoaded(['build', '--content', content, '--out', path.join(root, 'second'), '--no-incremental']);
    expect(await readFile(path.join(root, 'second', 'images', 'site-card.jpg'))).toEqual(await readFile(path.join(root, 'first', 'images', 'site-card.jpg')));
    expect(again).toContain('commander');
    expect(again).not.toContain('sharp');
  });

  it('a build with nothing new loads neither yaml (its frontmatter takes the fast path) nor esbuild (assets and service worker cached)', async () => {
    const content = await fixtureCopy();
    const root = path.dirname(content);
    const args = ['build', '--content', content, '--out', path.join(root, 'dist')];
    await packagesInModuleCache(args, root);
    const first = await readFile(path.join(root, 'dist', 'sw.js'), 'utf8');
    const again = await packagesInModuleCache(args, root);
    expect(again).toEqual(expect.arrayContaining(['commander', 'react']));
    expect(again).not.toContain('yaml');
    expect(again).not.toContain('esbuild');
    // The cached worker is the one bundling made.
    expect(await readFile(path.join(root, 'dist', 'sw.js'), 'utf8')).toBe(first);
  });

  it('felt deploy and felt pull with the local-folder storage never load the GCS client', async () => {
    const content = await fixtureCopy();
    const root = path.dirname(content);
    const dist = path.join(root, 'dist');
    await packagesLoaded(['build', '--content', content, '--out', dist, '--no-incremental']);
    const deployed = await packagesLoaded(['deploy', '--content', content, '--storage', 'local', '--bucket', 'site', '--dist', dist]);
    // It did deploy: the home page is in the local bucket, byte for byte.
    expect(await readFile(path.join(root, '.buckets', 'site', 'index.html'), 'utf8')).toBe(await readFile(path.join(dist, 'index.html'), 'utf8'));
    expect(deployed).not.toContain('@google-cloud/storage');

    // The dev bucket holds the fixture's articles; pull --env dev copies them into content.dev/.
    await cp(path.join(content, 'articles'), path.join(root, '.buckets', 'felt-magazine-dev', 'articles'), { recursive: true });
    const pulled = await packagesLoaded(['pull', '--env', 'dev', '--content', content, '--storage', 'local']);
    expect(await readdir(path.join(root, 'content.dev', 'articles', 'en_US'))).toEqual(await readdir(path.join(content, 'articles', 'en_US')));
    expect(pulled).not.toContain('@google-cloud/storage');

    // A deploy to GCS (the loopback server) does load the client: the check above can see it.
    const gcs = await startFakeGcs();
    try {
      const toGcs = await packagesLoaded([
        'deploy',
        '--content',
        content,
        '--storage',
        'gcs',
        '--storage-endpoint',
        gcs.url,
        '--bucket',
        'site',
        '--dist',
        dist,
      ]);
      expect(gcs.buckets.get('site')?.has('index.html')).toBe(true);
      expect(toGcs).toContain('@google-cloud/storage');
    } finally {
      await gcs.close();
    }
  });
});
