/**
 * Issue 11: every error code comes from one catalogue (an unknown code does
 * not compile: `npx tsc` fails on the @ts-expect-error below if FeltError
 * ever takes any string again); stage boundaries turn what the OS refuses
 * into one line naming the file and the stage, exit 1; FELT_DEBUG=1 prints
 * the chain of causes under that line, secrets masked, and nothing changes
 * without it. Through the CLI's own entry point, as an operator runs it.
 */
import { chown, mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { redactSecrets } from '../../cli/secrets.ts';
import { FeltError, errorCatalogue, isErrorCode } from '../../shared/errors.ts';
import { environmentError } from '../../shared/stageErrors.ts';
import { loadingContent, writingSite } from '../../site/build/stages.ts';
import { deserializeError, serializeError } from '../../site/build/workerErrors.ts';
import { makeFixture } from '../support/fixtureSite.ts';
import { listenOnLoopback } from '../support/loopback.ts';
import { fixtureCopy, tempDir } from '../site/helpers.ts';

describe('the catalogue', () => {
  it('gives every code a title and a default hint, which a call site may override', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(entry.code).toBe(code);
      expect(entry.title.length, code).toBeGreaterThan(0);
      expect(entry.hint.length, code).toBeGreaterThan(0);
    }
    expect(new FeltError('BAD_OPTION', '--count must be a whole number').hint).toBe(errorCatalogue.BAD_OPTION.hint);
    expect(new FeltError('BAD_OPTION', '--count must be a whole number', { hint: 'try 3' }).hint).toBe('try 3');
    expect(new FeltError('DISK_FULL', 'no space left').title).toBe('The disk is full');
  });

  it('knows no code outside it, at compile time and at a thread boundary', () => {
    // @ts-expect-error NO_SUCH_CODE is not in the catalogue (this line is what `npx tsc` checks).
    const typo = () => new FeltError('NO_SUCH_CODE', 'a code with a typo');
    expect(typo).toBeTypeOf('function');
    expect(isErrorCode('NO_SUCH_CODE')).toBe(false);
    expect(isErrorCode('CONTENT_INVALID')).toBe(true);
  });
});

let err: string[];
const felt = (...args: string[]) => main(['node', 'felt', ...args]);

beforeEach(() => {
  err = [];
  process.exitCode = undefined;
  delete process.env.FELT_DEBUG;
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.FELT_DEBUG;
  process.exitCode = undefined;
});

/** The lines printed to stderr, one string per line. */
const printed = () => err.join('\n').split('\n');

describe('a wrapped failure prints one line; FELT_DEBUG=1 adds its causes', () => {
  it('felt build with --out through a file: the path, the stage, exit 1', async () => {
    const content = await fixtureCopy();
    const blocker = path.join(await tempDir(), 'a-file');
    await writeFile(blocker, 'not a folder');
    const out = path.join(blocker, 'dist');

    expect(await felt('build', '--content', content, '--out', out)).toBe(1);
    expect(printed()).toEqual([
      expect.stringMatching(
        /^felt: .*a-file\/dist\S*: found a file where a folder should be \(while preparing the output folder\)\. choose another folder with --out$/,
      ),
    ]);

    err.length = 0;
    process.env.FELT_DEBUG = '1';
    expect(await felt('build', '--content', content, '--out', out)).toBe(1);
    const lines = printed();
    expect(lines[0]).toMatch(/^felt: .*found a file where a folder should be/);
    expect(lines[1]).toBe('  BAD_PATH (A file or folder is missing or of the wrong kind), while preparing the output folder');
    expect(lines[2]).toMatch(/^ {2}caused by: Error: ENOTDIR: not a directory, (?:mkdir|lstat) '.*a-file\/dist/);
  });

  it('felt check with an article that is a folder: a problem with that file (issue 15), not an OS error of the content folder', async () => {
    const content = await fixtureCopy();
    await mkdir(path.join(content, 'articles', 'en_US', 'not-a-file.md'));

    expect(await felt('check', '--content', content)).toBe(1);
    const listed = vi.mocked(console.log).mock.calls.map((call) => call.join(' '));
    expect(listed.filter((line) => line.startsWith('error'))).toEqual([
      `error   ${path.join(content, 'articles', 'en_US', 'not-a-file.md')}: is a folder, not a file (remove it or move it out of the content folder)`,
    ]);
    expect(printed()).toEqual(['felt: 1 error in content or UI strings. fix the problems listed above and run `felt check` again']);
  });

  it('a bug is not dressed up as an expected failure', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'slug')");
    expect(environmentError(bug, writingSite('/out'))).toBeUndefined();
    // A missing file felt wrote itself is felt's bug too: only paths the operator named are theirs.
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open 'dist/x'"), { code: 'ENOENT', path: 'dist/x' });
    expect(environmentError(missing, writingSite('/out'))).toBeUndefined();
    // A write to an open file names no path: the stage's folder stands in.
    const full = environmentError(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), writingSite('/out'));
    expect(full).toMatchObject({ code: 'DISK_FULL', message: 'no space left on the disk (while writing the site)', location: { file: '/out' } });
  });

  // Tests run as root here: only root can give a folder to another user (chown), which is what a build run with sudo
  // leaves behind for the operator's own user.
  it.runIf(process.getuid?.() === 0)("a refused file of felt's cache another user owns says how to give the cache back, not the stage's advice", async () => {
    const site = await tempDir('felt-cache-owner-');
    const cache = path.join(site, '.felt-cache');
    await mkdir(cache);
    await chown(cache, 65534, 65534);
    const journal = path.join(cache, 'articles.json.journal');
    const refusedAt = (file: string) =>
      environmentError(
        Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES', path: file }),
        loadingContent(path.join(site, 'content')),
      );
    expect(refusedAt(journal)).toMatchObject({
      code: 'NO_PERMISSION',
      message: 'permission denied (while loading content)',
      location: { file: journal },
      hint: "felt's cache belongs to another user (a build run with sudo?): give it back (chown -R) or remove .felt-cache/, which felt makes again",
    });
    // The stage's own advice: a cache folder of this user's, or none yet (its parent refused it), or another file.
    const stageHint = loadingContent(path.join(site, 'content')).pathHint;
    await chown(cache, process.getuid!(), process.getgid!());
    expect(refusedAt(journal)?.hint).toBe(stageHint);
    expect(refusedAt(path.join(site, 'elsewhere', '.felt-cache', 'articles.json'))?.hint).toBe(stageHint);
    expect(refusedAt(path.join(site, 'content', 'articles', 'en_US', 'a.md'))?.hint).toBe(stageHint);
  });
});

/** A storage API that refuses every call and, as real APIs do, quotes the credentials and the address it was sent. */
async function echoingStorage(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const said = `Invalid credentials ${request.headers.authorization ?? '(none)'} for ${request.url}`;
    response.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { code: 401, message: said } }));
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close };
}

describe('secrets in a cause', () => {
  const PASSWORD = 'hunter2-Pa55word';
  const KEY = 'AIzaSyA1234567890abcdefghijklmnop';
  it.each([
    // The client sends the URL's password as "Authorization: Basic base64(user:password)", and the server quotes it back.
    [
      'a password in the storage endpoint',
      (url: string) => url.replace('http://', `http://felt:${PASSWORD}@`),
      [PASSWORD, Buffer.from(`felt:${PASSWORD}`).toString('base64')],
    ],
    ['an API key in the storage endpoint', (url: string) => `${url}/?key=${KEY}`, [KEY]],
  ])('%s is masked in the cause chain under FELT_DEBUG=1', async (_name, endpoint, secrets) => {
    const fixture = await makeFixture();
    const storage = await echoingStorage();
    try {
      process.env.FELT_DEBUG = '1';
      expect(await felt('pull', '--content', fixture.contentDir, '--storage', 'gcs', '--storage-endpoint', endpoint(storage.url))).toBe(1);
      const lines = printed();
      expect(lines[1]).toBe('  STORAGE_DENIED (Storage refused the credentials)');
      expect(lines[2]).toMatch(/^ {2}caused by: Error: Invalid credentials .* for \/.*storage\/v1\/b\/felt-test/);
      expect(lines[2]).toContain('***');
      for (const secret of secrets) expect(lines.join('\n')).not.toContain(secret);
    } finally {
      await storage.close();
      await fixture.cleanup();
    }
  });

  it('leave prose that only looks like a credential scheme alone', () => {
    expect(redactSecrets('Basic Strategies for Beginners, Bearer Bonds Explained', {})).toBe('Basic Strategies for Beginners, Bearer Bonds Explained');
    expect(redactSecrets('Authorization: Basic dXNlcjpwYXNz', {})).toBe('Authorization: Basic ***');
  });
});

describe('the render workers', () => {
  it('send a wrapped failure to the main thread with its code, file, stage and cause', () => {
    const full = Object.assign(new Error("ENOSPC: no space left on device, open '/out/index.html'"), { code: 'ENOSPC', path: '/out/index.html' });
    const crossed = deserializeError(structuredClone(serializeError(environmentError(full, writingSite('/out')))));
    expect(crossed).toBeInstanceOf(FeltError);
    expect(crossed).toMatchObject({ code: 'DISK_FULL', stage: 'writing the site', location: { file: '/out/index.html' } });
    expect((crossed.cause as Error).message).toBe(full.message);
  });
});
