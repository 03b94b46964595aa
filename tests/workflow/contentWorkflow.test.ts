/**
 * .github/workflows/content.yml run as GitHub would run it (issues 12 and 17):
 * its `run:` steps, in order, as `bash -e` commands, in a fresh copy of the
 * repository, against the loopback GCS server (the real @google-cloud/storage
 * client, through STORAGE_EMULATOR_HOST) and the loopback OpenAI-compatible
 * server. The `uses:` steps are played by the test: checkout is the fresh
 * copy, actions/cache/restore and actions/cache/save copy the paths the
 * workflow names to and from a folder that stands for the CI cache, and
 * upload-artifact copies the reports. Three nights: a first one with no
 * cache and no state in the bucket, a warm one (cache restored), and one on a
 * fresh runner whose cache is gone but whose bucket keeps the state snapshot.
 * Each night must build and deploy all three sites; the warm night and the
 * snapshot night download no unchanged article. Then two batch nights
 * (COUNT ≥ BATCH_FROM): the first submits its articles to the Batch API and
 * publishes nothing new, the next collects them, publishes, builds and deploys.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fakeOpenAi.ts';
import { articleSource } from '../support/fixtureSite.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LOCALES = ['en_US', 'ru_RU', 'tr_TR'] as const;
const PROD = 'felt-magazine';
const SITE = 'felt-night-site';
const EARLIER = 60;

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string>;
}
const workflow = parse(await readFile(path.join(ROOT, '.github/workflows/content.yml'), 'utf8')) as {
  jobs: { content: { env: Record<string, string>; steps: Step[] } };
};
const job = workflow.jobs.content;

let gcs: FakeGcs;
let llm: FakeOpenAi;
let work: string;
beforeAll(async () => {
  gcs = await startFakeGcs();
  llm = await startFakeOpenAi();
  work = await mkdtemp(path.join(os.tmpdir(), 'felt-workflow-'));
  // Production as earlier nights left it: EARLIER articles per locale. The dev bucket is empty; generate fills it.
  for (const locale of LOCALES)
    for (let n = 0; n < EARLIER; n++)
      gcs.put(PROD, `articles/${locale}/earlier-${n}.md`, articleSource(`earlier-${n}`, `Earlier ${n}`, locale), {
        contentType: 'text/markdown; charset=utf-8',
      });
  for (const locale of LOCALES) gcs.buckets.set(`${SITE}-${locale}`, new Map());
}, 300_000);
afterAll(async () => {
  await gcs?.close();
  await llm?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A checkout: the repository's files (committed and new, as `git ls-files` sees them), its installed node_modules and compiled lib/. */
async function freshCheckout(name: string): Promise<string> {
  const dir = path.join(work, name);
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) if (existsSync(path.join(ROOT, file))) await cp(path.join(ROOT, file), path.join(dir, file), { recursive: true });
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  await cp(path.join(ROOT, 'lib'), path.join(dir, 'lib'), { recursive: true });
  return dir;
}

function shell(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const cachePaths = (step: Step) =>
  String(step.with?.path ?? '')
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);

/** Runs the job's steps in order; the CI cache is `cacheDir` (absent: empty). */
async function night(
  name: string,
  cacheDir: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ outputs: string[]; checkout: string; summary: string; verdict: number }> {
  const checkout = await freshCheckout(name);
  const summaryFile = path.join(work, `${name}-summary.md`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The workflow's own env, minus what GitHub fills from secrets and variables (set here instead).
    ...Object.fromEntries(Object.entries(job.env).filter(([, v]) => !String(v).includes('${{'))),
    COUNT: '2',
    FELT_RUN: `workflow-test-${name}`,
    SITE_BUCKET: SITE,
    OPENAI_API_KEY: 'workflow-test-key',
    OPENAI_BASE_URL: llm.url,
    STORAGE_EMULATOR_HOST: gcs.url,
    GITHUB_STEP_SUMMARY: summaryFile,
    // What google-github-actions/auth leaves when GOOGLE_CLOUD_PROJECT is unset: the key's project.
    GOOGLE_CLOUD_PROJECT: 'felt-night-project',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    ...extraEnv,
  };
  const outputs: string[] = [];
  let verdict = -1;
  for (const step of job.steps) {
    const uses = step.uses?.split('@')[0];
    if (step.run !== undefined) {
      expect(step.run, `${step.name}: run steps read env, not expressions`).not.toContain('${{');
      if (/^npm ci\b/.test(step.run)) continue; // node_modules is linked into the checkout
      const { code, output } = await shell(step.run, checkout, env);
      outputs.push(`## ${step.name}\n${output}`);
      if (step.name === 'Verdict') verdict = code;
      else expect(code, `${step.name} exited ${code}:\n${output}`).toBe(0);
    } else if (uses === 'actions/cache/restore') {
      if (existsSync(cacheDir))
        for (const p of cachePaths(step))
          if (existsSync(path.join(cacheDir, p))) {
            await rm(path.join(checkout, p), { recursive: true, force: true });
            await cp(path.join(cacheDir, p), path.join(checkout, p), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
          }
    } else if (uses === 'actions/cache/save') {
      await rm(cacheDir, { recursive: true, force: true });
      for (const p of cachePaths(step))
        if (existsSync(path.join(checkout, p)))
          await cp(path.join(checkout, p), path.join(cacheDir, p), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    } else if (uses === 'actions/upload-artifact') {
      await cp(path.join(checkout, step.with!.path!), path.join(work, `${name}-artifact`), { recursive: true });
    }
  }
  return { outputs, checkout, verdict, summary: existsSync(summaryFile) ? await readFile(summaryFile, 'utf8') : '' };
}

// Downloads of production's articles: pull's work. (Publish reads each new dev article too, to check it before it reaches production.)
const articleDownloads = () => gcs.log.filter((r) => r.kind === 'object.download' && decodeURIComponent(r.path).includes(`/b/${PROD}/o/articles/`));
const deployed = (locale: string) => gcs.buckets.get(`${SITE}-${locale}`)!;

describe('the content workflow, step by step', () => {
  const cache = () => path.join(work, 'ci-cache');

  it('night 1, no cache and no state: generates, publishes, pulls, checks, builds and deploys all three sites', async () => {
    gcs.resetLog();
    const { summary, checkout, verdict } = await night('night-1', cache());
    expect(verdict).toBe(0);
    for (const locale of LOCALES) {
      expect(deployed(locale).has('index.html'), locale).toBe(true);
      // Earlier articles and the two generated tonight are on the site.
      expect(
        [...deployed(locale).keys()].some((n) => n.includes('earlier-7')),
        locale,
      ).toBe(true);
    }
    // The slow path: every article came one by one, and the state for the next fresh runner was written.
    expect(articleDownloads().length).toBe(3 * (EARLIER + 2));
    for (const locale of LOCALES) expect(gcs.buckets.get(PROD)!.has(`state/articles-${locale}.pack.gz`)).toBe(true);
    expect(summary).toMatch(/\| en_US \| 2 \| 0 \|/);
    expect(summary).toMatch(/pull: 186 downloaded/);
    expect(existsSync(path.join(work, 'night-1-artifact', 'deploy-tr_TR.json'))).toBe(true);
    expect(existsSync(path.join(cache(), 'content', 'articles', 'ru_RU', 'earlier-3.md'))).toBe(true);
    expect(existsSync(path.join(checkout, 'reports', 'failures.txt'))).toBe(false);
  }, 600_000);

  it('night 2, warm cache: downloads only the new articles, builds and deploys', async () => {
    gcs.resetLog();
    const { summary } = await night('night-2', cache());
    expect(
      articleDownloads()
        .map((r) => decodeURIComponent(r.path).replace(/.*\/articles\//, ''))
        .every((n) => !n.includes('earlier-')),
    ).toBe(true);
    expect(articleDownloads()).toHaveLength(3 * 2);
    expect(summary).toMatch(/pull: 6 downloaded \(0 from the state snapshot\), 186 unchanged/);
    for (const locale of LOCALES)
      expect(
        gcs.log.some((r) => r.kind === 'object.upload' && r.path.includes(`${SITE}-${locale}`)),
        locale,
      ).toBe(true);
    for (const locale of LOCALES) expect(deployed(locale).has('index.html')).toBe(true);
  }, 600_000);

  it('night 3, cache gone: the state snapshot in the bucket spares the unchanged downloads; built and deployed', async () => {
    await rm(cache(), { recursive: true, force: true });
    gcs.resetLog();
    const { summary } = await night('night-3', cache());
    // The packs (written on night 1) hold 62 articles a locale; only the two of night 2 and the two of tonight come one by one.
    expect(articleDownloads()).toHaveLength(3 * 4);
    expect(summary).toMatch(/pull: 198 downloaded \(186 from the state snapshot\)/);
    for (const locale of LOCALES) expect(deployed(locale).has('index.html')).toBe(true);
  }, 600_000);

  it("night 4, every tr_TR answer is bad: en_US and ru_RU still publish, build and deploy; the run reports tr_TR's failure", async () => {
    llm.reply = (call) => (call.language === 'tr' ? { content: 'I cannot help with that.' } : undefined);
    try {
      const before = new Map(LOCALES.map((l) => [l, new Set(deployed(l).keys())]));
      gcs.resetLog();
      const { summary, verdict, checkout } = await night('night-4', cache());
      const code = Number(await readFile(path.join(checkout, 'reports', 'generate-tr_TR.exit'), 'utf8'));
      expect([1, 2]).toContain(code);
      // The run says so: a failure fails the verdict, skipped items (exit 2) are a warning.
      expect(verdict).toBe(code === 1 ? 1 : 0);
      expect(summary).toMatch(/\| tr_TR \| (0|failed \(exit 1\)) \|/);
      for (const locale of ['en_US', 'ru_RU'] as const) {
        const fresh = [...deployed(locale).keys()].filter((n) => n.endsWith('.html') && !before.get(locale)!.has(n));
        expect(fresh.length, `${locale}: new pages deployed`).toBeGreaterThan(0);
      }
      expect(deployed('tr_TR').has('index.html')).toBe(true);
    } finally {
      llm.reply = () => undefined;
    }
  }, 600_000);

  describe('batch nights (COUNT ≥ BATCH_FROM)', () => {
    const batchEnv = { BATCH_FROM: '2' };
    const articlePages = (locale: string) => [...deployed(locale).keys()].filter((n) => n.endsWith('.html'));
    let submitted: Record<string, { batchId: string | null; slots: number[] }> = {};

    it('night A submits a batch per locale and publishes nothing new', async () => {
      const before = new Map(LOCALES.map((l) => [l, articlePages(l).length]));
      const { summary, checkout, verdict } = await night('night-a', cache(), batchEnv);
      expect(verdict).toBe(0);
      submitted = Object.fromEntries(
        await Promise.all(LOCALES.map(async (l) => [l, JSON.parse(await readFile(path.join(checkout, 'reports', `batch-${l}.json`), 'utf8'))])),
      );
      for (const locale of LOCALES) {
        expect(submitted[locale]!.batchId, locale).toMatch(/^batch_/);
        expect(submitted[locale]!.slots, locale).toHaveLength(2);
        expect(existsSync(path.join(checkout, 'reports', `generate-${locale}.json`)), `${locale}: no direct run`).toBe(false);
        expect(articlePages(locale).length, `${locale}: no new page`).toBe(before.get(locale));
      }
      expect(summary).toMatch(/publish: 0 copied to production/);
      expect(summary).toMatch(/batches collected: 0 of 0/);
      expect(summary).toMatch(/batches submitted for the next night: en_US 2 articles \(batch_\w+\)/);
    }, 600_000);

    it("night B collects night A's batches: their articles are published, built and deployed; tonight's are submitted", async () => {
      const { summary, checkout, verdict } = await night('night-b', cache(), batchEnv);
      expect(verdict).toBe(0);
      const collect = JSON.parse(await readFile(path.join(checkout, 'reports', 'collect.json'), 'utf8')) as {
        batches: { batchId: string; status: string; summary?: { locale: string; stored: { slug: string }[] } }[];
      };
      expect(collect.batches.map((b) => b.batchId).sort()).toEqual(LOCALES.map((l) => submitted[l]!.batchId).sort());
      for (const locale of LOCALES) {
        const stored = collect.batches.find((b) => b.summary?.locale === locale)!.summary!.stored;
        expect(stored, locale).toHaveLength(2);
        for (const { slug } of stored) {
          expect(gcs.buckets.get(PROD)!.has(`articles/${locale}/${slug}.md`), `${locale} ${slug} published`).toBe(true);
          expect(
            articlePages(locale).some((n) => n.includes(slug)),
            `${locale} ${slug} deployed`,
          ).toBe(true);
        }
      }
      expect(summary).toMatch(/\| en_US \| 2 \| 0 \|/);
      expect(summary).toMatch(/publish: 6 copied to production/);
      expect(summary).toMatch(/batches collected: 3 of 3/);
      expect(summary).toMatch(/batches submitted for the next night: en_US 2 articles/);
    }, 600_000);
  });
});
