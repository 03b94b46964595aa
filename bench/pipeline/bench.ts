/**
 * The two pipeline figures of issue 4, measured with the real clients
 * against the loopback servers of the tests.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate, type RunSummary } from '../../cli/generate/run.ts';
import { pull } from '../../cli/pull.ts';
import { createReporter } from '../../cli/report.ts';
import { startFakeGcs } from '../../tests/support/fakeGcs.ts';
import { startFakeOpenAi } from '../../tests/support/fakeOpenAi.ts';
import { articleSource, makeFixture } from '../../tests/support/fixtureSite.ts';

const silent = () => createReporter({ stdout: { write: () => true } as never, stderr: { write: () => true } as never, tty: false });

export async function benchGenerate(count = 200, concurrency = 8, delayMs = 300) {
  const llm = await startFakeOpenAi();
  llm.delayMs = delayMs;
  const fixture = await makeFixture();
  try {
    const started = performance.now();
    const summary = (await generate({
      contentDir: fixture.contentDir,
      locale: 'en_US',
      count,
      concurrency,
      date: '2026-06-01',
      llm: { baseURL: llm.url, apiKey: 'bench-key' },
      reporter: silent(),
    })) as RunSummary;
    const wall = (performance.now() - started) / 1000;
    const ideal = (count * delayMs) / 1000 / concurrency;
    return {
      articles: summary.stored.length,
      failed: summary.failed.length,
      concurrency,
      answerMs: delayMs,
      wallSeconds: round(wall),
      idealSeconds: ideal,
      overheadPercent: round(((wall - ideal) / ideal) * 100),
    };
  } finally {
    await llm.close();
    await fixture.cleanup();
  }
}

export async function benchPull(articles = 10_000) {
  const gcs = await startFakeGcs();
  const fixture = await makeFixture();
  try {
    const folder = path.join(fixture.contentDir, 'articles', 'en_US');
    await mkdir(folder, { recursive: true });
    for (let i = 0; i < articles; i++) {
      const slug = `article-${i}`;
      const source = articleSource(slug, `Article ${i}`);
      gcs.put('felt-test', `articles/en_US/${slug}.md`, source, { contentType: 'text/markdown; charset=utf-8' });
      await writeFile(path.join(folder, `${slug}.md`), source);
    }
    gcs.resetLog();
    const started = performance.now();
    const result = await pull({ contentDir: fixture.contentDir, storage: { storage: 'gcs', apiEndpoint: gcs.url }, reporter: silent() });
    const seconds = (performance.now() - started) / 1000;
    const downloads = gcs.count('object.download');
    return {
      articles,
      unchanged: result.unchanged,
      downloaded: downloads,
      requests: gcs.log.length,
      listRequests: gcs.count('object.list'),
      seconds: round(seconds),
    };
  } finally {
    await gcs.close();
    await fixture.cleanup();
  }
}

export async function runPipelineBench(options: { json?: boolean } = {}) {
  const gen = await benchGenerate();
  if (!options.json)
    console.log(
      `generate: ${gen.articles} articles at concurrency ${gen.concurrency}, answers after ${gen.answerMs} ms: ${gen.wallSeconds} s wall vs ${gen.idealSeconds} s ideal (+${gen.overheadPercent}%)`,
    );
  const pulled = await benchPull();
  if (!options.json)
    console.log(
      `pull: ${pulled.articles} articles, nothing changed: ${pulled.requests} requests (${pulled.listRequests} list pages, ${pulled.downloaded} downloads), ${pulled.seconds} s`,
    );
  return { generate: gen, pull: pulled };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
