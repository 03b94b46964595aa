/**
 * One settings loader (issue 11): site.json, categories.json and authors.json
 * are read the same way by the build, the pipeline commands and the server:
 * strict JSON, every field in the schema (storage.projectId, apiEndpoint and
 * proxy.allow included), every problem at the line of its field.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProject } from '../../cli/project.ts';
import { openStorage } from '../../cli/storage/index.ts';
import { ContentError, formatProblem } from '../../shared/errors.ts';
import { checkContent } from '../../site/content/check.ts';
import { loadContent } from '../../site/content/loadContent.ts';
import { readProxyAllowlist } from '../../site/serve/proxy.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { runFelt, STACK_TRACE } from '../support/cli.ts';
import { fixtureCopy } from '../site/helpers.ts';

type Json = Record<string, unknown>;

/** A fixture content folder whose site.json is edited, written two-space indented; its text is returned too. */
async function withSiteJson(edit: (site: Json & { storage: Json; proxy: Json }) => void): Promise<{ dir: string; text: string }> {
  const dir = await fixtureCopy();
  const site = JSON.parse(await readFile(path.join(dir, 'site.json'), 'utf8'));
  edit(site);
  const text = JSON.stringify(site, null, 2);
  await writeFile(path.join(dir, 'site.json'), text);
  return { dir, text };
}

/** 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`${needle} is not in the text`);
  return index + 1;
}

/** The problems a call rejects with, as the CLI prints them. */
async function problemsOf(call: Promise<unknown>): Promise<string[]> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ContentError) return error.problems.map(formatProblem);
    throw error;
  }
  return [];
}

describe('site.json storage fields', () => {
  it('checks storage.projectId and storage.apiEndpoint like every other field, at their lines, in the CLI and the build', async () => {
    const { dir, text } = await withSiteJson((site) => Object.assign(site.storage, { projectId: ' ', apiEndpoint: 'ftp://emulator.example' }));
    const expected = [
      expect.stringMatching(new RegExp(`site\\.json:${lineOf(text, '"projectId"')} field "storage\\.projectId": storage\\.projectId must not be empty$`)),
      expect.stringMatching(
        new RegExp(`site\\.json:${lineOf(text, '"apiEndpoint"')} field "storage\\.apiEndpoint": storage\\.apiEndpoint must be an http\\(s\\) URL$`),
      ),
    ];
    expect(await problemsOf(loadProject(dir))).toEqual(expected);
    expect(await problemsOf(loadContent(dir))).toEqual(expected);
  });

  it('storage.backend and storage.localRoot may be left out: the local buckets in .buckets, as the README says', async () => {
    const { dir } = await withSiteJson((site) => {
      delete site.storage.backend;
      delete site.storage.localRoot;
    });
    const { settings } = await loadProject(dir);
    expect(settings.storage).toMatchObject({ backend: 'local', localRoot: '.buckets' });
    expect(await problemsOf(loadContent(dir))).toEqual([]);
  });

  describe('on Google Cloud Storage', () => {
    let gcs: FakeGcs;
    const saved = { GOOGLE_CLOUD_PROJECT: process.env.GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT: process.env.GCLOUD_PROJECT };
    beforeAll(async () => {
      gcs = await startFakeGcs();
      delete process.env.GOOGLE_CLOUD_PROJECT;
      delete process.env.GCLOUD_PROJECT;
    });
    afterAll(async () => {
      await gcs.close();
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    });

    it('hands the project and the endpoint of site.json to the client', async () => {
      const { dir } = await withSiteJson((site) => Object.assign(site.storage, { backend: 'gcs', projectId: 'felt-settings-test', apiEndpoint: gcs.url }));
      await openStorage(await loadProject(dir))
        .bucket('felt-settings-bucket')
        .create();
      expect(gcs.log.filter((request) => request.kind === 'bucket.insert').map((request) => request.query.project)).toEqual(['felt-settings-test']);
    });

    it("an empty GOOGLE_CLOUD_PROJECT (a workflow's unset variable) falls back to the credentials' project, not to an empty one (issue 17)", async () => {
      const { dir } = await withSiteJson((site) => Object.assign(site.storage, { backend: 'gcs', apiEndpoint: gcs.url }));
      const key = path.join(dir, 'service-account.json');
      await writeFile(
        key,
        JSON.stringify({ type: 'service_account', project_id: 'felt-from-the-key', client_email: 'night@felt-from-the-key.iam.gserviceaccount.com' }),
      );
      const before = { project: process.env.GOOGLE_CLOUD_PROJECT, key: process.env.GOOGLE_APPLICATION_CREDENTIALS };
      process.env.GOOGLE_CLOUD_PROJECT = '';
      process.env.GOOGLE_APPLICATION_CREDENTIALS = key;
      try {
        gcs.resetLog();
        await openStorage(await loadProject(dir))
          .bucket('felt-key-bucket')
          .create();
      } finally {
        if (before.project === undefined) delete process.env.GOOGLE_CLOUD_PROJECT;
        else process.env.GOOGLE_CLOUD_PROJECT = before.project;
        if (before.key === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
        else process.env.GOOGLE_APPLICATION_CREDENTIALS = before.key;
      }
      expect(gcs.log.filter((request) => request.kind === 'bucket.insert').map((request) => request.query.project)).toEqual(['felt-from-the-key']);
    });
  });
});

describe('strict JSON in the settings files', () => {
  it('refuses a trailing comma in site.json at its line, for the build, the pipeline commands and the server alike', async () => {
    const dir = await fixtureCopy();
    const text = (await readFile(path.join(dir, 'site.json'), 'utf8')).replace(/("backend": "local",\n\s*"localRoot": ".buckets")/, '$1,');
    await writeFile(path.join(dir, 'site.json'), text);
    const expected = [
      expect.stringMatching(
        new RegExp(`site\\.json:${lineOf(text, '"localRoot"')}: is not valid JSON: a trailing comma is not allowed in JSON \\(fix the JSON syntax\\)$`),
      ),
    ];
    expect(await problemsOf(loadContent(dir))).toEqual(expected);
    expect(await problemsOf(loadProject(dir))).toEqual(expected);
    expect(await problemsOf(readProxyAllowlist(dir))).toEqual(expected);
  });

  it('refuses a comment in authors.json and categories.json at its line', async () => {
    const dir = await fixtureCopy();
    for (const name of ['authors.json', 'categories.json']) {
      const text = await readFile(path.join(dir, name), 'utf8');
      await writeFile(path.join(dir, name), text.replace('\n', '\n  // added by hand\n'));
    }
    const problems = await problemsOf(loadProject(dir));
    expect(problems.map((line) => path.basename(line))).toEqual([
      'categories.json:2: is not valid JSON: comments are not allowed in JSON (fix the JSON syntax)',
      'authors.json:2: is not valid JSON: comments are not allowed in JSON (fix the JSON syntax)',
    ]);
  });

  it('gives the line of a field of an author, as the build reports it (not only felt check)', async () => {
    const dir = await fixtureCopy();
    const authors = JSON.parse(await readFile(path.join(dir, 'authors.json'), 'utf8')) as Json[];
    authors[1]!.slug = 'Not A Slug';
    const text = JSON.stringify(authors, null, 2);
    await writeFile(path.join(dir, 'authors.json'), text);
    expect(await problemsOf(loadContent(dir))).toEqual([
      expect.stringMatching(new RegExp(`authors\\.json:${lineOf(text, '"Not A Slug"')} field "1\\.slug": 1\\.slug must be lowercase`)),
    ]);
  });
});

describe('fields felt does not know', () => {
  it('are errors at their lines, each naming the field it misspells, for the pipeline commands and the build alike', async () => {
    // A misspelt optional field used to be dropped without a word: the night ran without its spending cap, or
    // against real storage instead of the emulator, and `felt check` passed.
    const { dir, text } = await withSiteJson((site) => {
      Object.assign(site.generation as Json, { budjet: 0.001 });
      Object.assign(site.storage, { apiEndpiont: 'http://127.0.0.1:1' });
      site.extraThing = 1;
    });
    const expected = [
      `site.json:${lineOf(text, '"apiEndpiont"')} field "storage.apiEndpiont": storage.apiEndpiont is not a field felt knows (did you mean "apiEndpoint"?)`,
      `site.json:${lineOf(text, '"budjet"')} field "generation.budjet": generation.budjet is not a field felt knows (did you mean "budget"?)`,
      `site.json:${lineOf(text, '"extraThing"')} field "extraThing": extraThing is not a field felt knows (remove it; the fields here are "title", "tagline", "brand", "url", "email", "social", "locale", "localeUrls", "home", "sponsored", "storage", "proxy", "generation")`,
    ].map((line) => expect.stringMatching(new RegExp(`${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)));
    expect((await problemsOf(loadProject(dir))).sort()).toEqual(expected);
    expect((await problemsOf(loadContent(dir))).sort()).toEqual(expected);
  });

  it('in generation.images too, and an editor\'s "$schema" is allowed', async () => {
    const { dir, text } = await withSiteJson((site) => {
      site.$schema = 'https://example.com/felt-site.schema.json';
      Object.assign(site.generation as Json, { images: { model: 'gpt-image-1', qualty: 'hd' } });
    });
    expect(await problemsOf(loadProject(dir))).toEqual([
      expect.stringMatching(
        new RegExp(
          `site\\.json:${lineOf(text, '"qualty"')} field "generation\\.images\\.qualty": generation\\.images\\.qualty is not a field felt knows \\(did you mean "quality"\\?\\)$`,
        ),
      ),
    ]);
  });

  it("in authors.json and categories.json too (an author's metaTitle for meta_title)", async () => {
    const dir = await fixtureCopy();
    const authors = JSON.parse(await readFile(path.join(dir, 'authors.json'), 'utf8')) as Json[];
    authors[0]!.metaTitle = 'A title';
    await writeFile(path.join(dir, 'authors.json'), JSON.stringify(authors, null, 2));
    const problems = (await checkContent({ contentDir: dir })).problems.map(formatProblem);
    expect(problems).toContainEqual(
      expect.stringMatching(/authors\.json:\d+ field "0\.metaTitle": 0\.metaTitle is not a field felt knows \(did you mean "meta_title"\?\)$/),
    );
  });
});

describe('the proxy allowlist', () => {
  it('is proxy.allow of the validated settings; a bad host is a problem at its line, not skipped', async () => {
    expect(await readProxyAllowlist((await withSiteJson(() => {})).dir)).toEqual(['www.googletagmanager.com', 'www.google-analytics.com']);
    const { dir, text } = await withSiteJson((site) => void (site.proxy.allow = ['www.googletagmanager.com', 'http://evil.example/']));
    expect(await problemsOf(readProxyAllowlist(dir))).toEqual([
      expect.stringMatching(new RegExp(`site\\.json:${lineOf(text, 'evil.example')} field "proxy\\.allow\\.1": proxy\\.allow\\.1 must be a host name`)),
    ]);
  });

  it('is empty, every host refused, when there is no site.json (a built site served alone)', async () => {
    const dir = await fixtureCopy();
    await rm(path.join(dir, 'site.json'));
    expect(await readProxyAllowlist(dir)).toEqual([]);
  });

  it('makes `felt serve` stop with one line per problem when site.json is invalid, instead of serving with another allowlist', async () => {
    const { dir, text } = await withSiteJson((site) => void (site.proxy.allow = 'www.googletagmanager.com'));
    // A built site to serve, so nothing but the settings can stop the server.
    const dist = path.join(path.dirname(dir), 'dist');
    await mkdir(dist);
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>x</title>');
    const run = await runFelt(['serve', '--content', dir, '--dist', dist, '--port', '0'], { timeoutMs: 10_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(STACK_TRACE);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`site\\.json:${lineOf(text, '"allow"')} field "proxy\\.allow": proxy\\.allow must be an array$`)),
      expect.stringMatching(/^felt: 1 problem in content/),
    ]);
  });
});

describe('checkContent', () => {
  it('reports a settings problem at the same line as the build', async () => {
    const { dir, text } = await withSiteJson((site) => void ((site.home as Json).pageSize = 0));
    const report = await checkContent({ contentDir: dir });
    expect(report.problems.map(formatProblem)).toContainEqual(
      expect.stringMatching(new RegExp(`site\\.json:${lineOf(text, '"pageSize"')} field "home\\.pageSize"`)),
    );
  });
});
