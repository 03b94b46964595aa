/**
 * The batch night's own work (issue 17), measured with the real clients
 * against the loopback servers of the tests: `felt generate --batch` of N
 * articles in one locale (build the prompts, upload the JSONL, create the
 * batch), then `felt generate --collect` (download the answers, check each as
 * a direct run does, store each in the dev bucket). The provider's own time
 * (up to 24 h, between the two nights) is not part of it.
 */
import { collectBatches, submitBatch } from '../../cli/generate/batch.ts';
import { createReporter } from '../../cli/report.ts';
import { startFakeGcs } from '../../tests/support/fakeGcs.ts';
import { startFakeOpenAi } from '../../tests/support/fakeOpenAi.ts';
import { makeFixture } from '../../tests/support/fixtureSite.ts';

const silent = () => createReporter({ stdout: { write: () => true } as never, stderr: { write: () => true } as never, tty: false });
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

export async function runBatchBench({ count }: { count: number }) {
  const llm = await startFakeOpenAi();
  const gcs = await startFakeGcs();
  const fixture = await makeFixture();
  try {
    const common = {
      contentDir: fixture.contentDir,
      storage: { storage: 'gcs' as const, apiEndpoint: gcs.url },
      llm: { baseURL: llm.url, apiKey: 'bench-key' },
      reporter: silent(),
      concurrency: 4,
    };
    let started = performance.now();
    const submitted = await submitBatch({ ...common, locale: 'en_US', count, date: '2026-06-01', runId: 'bench-batch' });
    // The loopback server answers every request of the batch while creating it: that is the provider's time, not felt's.
    const submitSeconds = seconds(started);
    started = performance.now();
    const collected = await collectBatches(common);
    const collectSeconds = seconds(started);
    const summary = collected.batches[0]?.summary;
    return {
      articles: count,
      submitted: submitted.slots.length,
      stored: summary?.stored.length ?? 0,
      skipped: summary?.failed.length ?? 0,
      submitSecondsWithProvider: submitSeconds,
      collectSeconds,
    };
  } finally {
    await llm.close();
    await gcs.close();
    await fixture.cleanup();
  }
}
