/**
 * Issue 14, item 2: deploys in link order. `felt deploy` to the loopback GCS
 * server; the bucket is looked at after every change a request makes (each
 * upload, each deletion): every one of those states, which is what a
 * visitor or a deploy killed at that moment leaves, must be whole (every
 * stored page links only to objects that exist, every JSON file parses).
 * After a first deploy into an empty bucket (a site that does not exist yet
 * is not whole before it is all there), the nightly one (20 new
 * articles, 3 edited, 2 deleted, with --delete); then a deploy killed with
 * SIGKILL midway is rerun and leaves the bucket equal to dist/.
 *
 * The two articles deleted a night are neighbours, so one is in the other's
 * related list (on night 3, bulk-95 and bulk-96, each in the other's): the
 * deploy deletes pages together, and for a moment the one left links to the
 * one gone, which no order avoids for the pair that link each other.
 * linkProblems lets only that through (`going`: the bucket's objects the
 * new dist/ does not have): a page that is itself being deleted, reached
 * only by a stale address.
 */
import { gunzipSync } from 'node:zlib';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploy } from '../../cli/deploy.ts';
import { createReporter } from '../../cli/report.ts';
import { buildSite } from '../../site/build/build.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { articleSource, captureStreams, makeFixture, type Fixture } from '../support/fixtureSite.ts';
import { linkProblems, siteFilesOf } from '../support/linkIntegrity.ts';
import { cleanEnv, runFelt } from '../support/cli.ts';

const SITE_URL = 'https://feltmagazine.example';
const BUCKET = 'felt-site';
const NOW = new Date('2026-11-21T12:00:00Z');

let gcs: FakeGcs;
let fixture: Fixture;
let dist: string;

export const deployTally = { snapshots: 0, broken: 0 };

beforeAll(async () => {
  gcs = await startFakeGcs();
  fixture = await makeFixture();
  for (const id of ['about-us', 'privacy-policy', 'terms']) {
    await mkdir(path.join(fixture.contentDir, 'pages', 'en'), { recursive: true });
    await writeFile(path.join(fixture.contentDir, 'pages', 'en', `${id}.md`), `---\ntitle: ${id}\ndescription: The ${id} page.\n---\nText.\n`);
  }
  const folder = path.join(fixture.contentDir, 'articles', 'en_US');
  await Promise.all(
    Array.from({ length: 120 }, (_, i) =>
      writeFile(
        path.join(folder, `bulk-${i}.md`),
        articleSource(`bulk-${i}`, `Bulk Article ${i}`, 'en_US', `Intro ${i}.\n\n## One\n\n${'Text. '.repeat(30)}\n`),
      ),
    ),
  );
  dist = path.join(fixture.root, 'dist');
  await buildSite({ contentDir: fixture.contentDir, outDir: dist, now: NOW });
}, 120_000);

afterAll(async () => {
  console.log(`deploy crash test: ${deployTally.snapshots} bucket snapshots checked, broken: ${deployTally.broken}`);
  await gcs?.close();
  await fixture?.cleanup();
});

const quiet = () => {
  const streams = captureStreams();
  return createReporter({ stdout: streams.stdout as never, stderr: streams.stderr as never, tty: false });
};

/** The bucket's objects as a visitor gets them (gzip-encoded ones decoded), cached per generation. */
const decoded = new Map<string, Buffer>();
function bucketFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const [name, object] of gcs.buckets.get(BUCKET) ?? []) {
    const key = `${name}@${object.generation}`;
    let bytes = decoded.get(key);
    if (!bytes) decoded.set(key, (bytes = object.contentEncoding === 'gzip' ? gunzipSync(object.data) : object.data));
    files.set(name, bytes);
  }
  return files;
}

/** What a deploy of dist/ with --delete removes from the bucket as it is now. */
async function goingNow(): Promise<Set<string>> {
  const local = await siteFilesOf(dist);
  return new Set([...(gcs.buckets.get(BUCKET)?.keys() ?? [])].filter((name) => !local.has(name)));
}

/** Checks every state of the bucket while `work` runs (a deploy removing `going`); returns the problems of the first broken one. */
async function watchEveryState(work: () => Promise<unknown>, going: ReadonlySet<string>): Promise<{ snapshots: number; firstBroken?: string[] }> {
  let snapshots = 0;
  let firstBroken: string[] | undefined;
  gcs.afterChange = (bucket) => {
    if (bucket !== BUCKET) return;
    snapshots++;
    deployTally.snapshots++;
    const problems = linkProblems(bucketFiles(), SITE_URL, going);
    if (problems.length) {
      deployTally.broken++;
      firstBroken ??= problems.slice(0, 5);
    }
  };
  try {
    await work();
  } finally {
    gcs.afterChange = undefined;
  }
  return { snapshots, firstBroken };
}

const storage = () => ({ storage: 'gcs', apiEndpoint: gcs.url });

async function nightly(round: number): Promise<void> {
  const folder = path.join(fixture.contentDir, 'articles', 'en_US');
  for (let i = 0; i < 20; i++) {
    const slug = `night-${round}-${i}`;
    await writeFile(
      path.join(folder, `${slug}.md`),
      articleSource(slug, `Night ${round} Article ${i}`).replace('date: 2026-01-02', `date: 2026-03-${String(round + 1).padStart(2, '0')}`),
    );
  }
  for (let i = 0; i < 3; i++) {
    const file = path.join(folder, `bulk-${round * 10 + i}.md`);
    await writeFile(file, (await readFile(file, 'utf8')) + `\nEdited on night ${round}.\n`);
  }
  // Neighbours in their listing (bulk-85 and bulk-86 on night 1), never among the edited ones.
  for (let i = 0; i < 2; i++) await rm(path.join(folder, `bulk-${80 + round * 5 + i}.md`));
  await buildSite({ contentDir: fixture.contentDir, outDir: dist, now: NOW });
}

describe('felt deploy in link order', () => {
  it('a first deploy into an empty bucket puts the whole site up', async () => {
    // A site that does not exist yet cannot be whole before it is all there: a new category page and
    // its new articles link to each other. Its states are not checked; every later deploy's are.
    const first = await deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: BUCKET, storage: storage(), reporter: quiet() });
    expect(first.cycles.length).toBeGreaterThan(0);
    expect(linkProblems(bucketFiles(), SITE_URL)).toEqual([]);
  }, 120_000);

  it('the nightly deploy (new, edited and deleted articles, --delete): every state of the bucket is whole, and the bucket ends equal to dist/', async () => {
    for (const round of [1, 2]) {
      await nightly(round);
      const watched = await watchEveryState(
        () => deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: BUCKET, storage: storage(), delete: true, reporter: quiet() }),
        await goingNow(),
      );
      expect(watched.snapshots).toBeGreaterThan(20);
      expect(watched.firstBroken, `night ${round}`).toBeUndefined();
      const local = await siteFilesOf(dist);
      const stored = bucketFiles();
      expect([...stored.keys()].sort()).toEqual([...local.keys()].sort());
      for (const [name, bytes] of local) expect(stored.get(name)!.equals(bytes), name).toBe(true);
    }
  }, 180_000);

  it('a deploy killed with SIGKILL midway leaves a whole bucket, and a rerun finishes it', async () => {
    await nightly(3);
    const env = cleanEnv({});
    const going = await goingNow();
    let killed = false;
    let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
    let changes = 0;
    // Killed after a few objects changed: somewhere among the uploads, in link order.
    const watched = await watchEveryState(async () => {
      const previous = gcs.afterChange!;
      gcs.afterChange = (bucket) => {
        previous(bucket);
        if (++changes === 12 && child) {
          killed = child.kill('SIGKILL');
        }
      };
      const run = await runFelt(['deploy', '--content', fixture.contentDir, '--dist', dist, '--bucket', BUCKET, '--storage', 'gcs', '--delete'], {
        env: { ...env, STORAGE_EMULATOR_HOST: gcs.url },
        timeoutMs: 120_000,
        onSpawn: (spawned) => (child = spawned),
      });
      expect(run.signal).toBe('SIGKILL');
    }, going);
    expect(killed).toBe(true);
    expect(watched.firstBroken).toBeUndefined();
    const rerun = await watchEveryState(
      () => deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: BUCKET, storage: storage(), delete: true, reporter: quiet() }),
      await goingNow(),
    );
    expect(rerun.firstBroken).toBeUndefined();
    const local = await siteFilesOf(dist);
    expect([...bucketFiles().keys()].sort()).toEqual([...local.keys()].sort());
  }, 180_000);

  it('a deploy that runs while two builds finish uploads the release it started from, whole (its lease keeps the builds off it)', async () => {
    await nightly(4);
    const started = await siteFilesOf(dist);
    // Every upload waits until both builds are done: the deploy has resolved dist/ and read a few files, no more.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let firstUpload!: () => void;
    const uploading = new Promise<void>((resolve) => (firstUpload = resolve));
    gcs.beforeAnswer = async (request) => {
      if (request.method === 'GET') return;
      firstUpload();
      await gate;
    };
    try {
      const running = deploy({ contentDir: fixture.contentDir, distDir: dist, bucket: BUCKET, storage: storage(), delete: true, reporter: quiet() });
      await uploading;
      await nightly(5);
      await nightly(6);
      open();
      const result = await running;
      expect(result.failed).toEqual([]);
      expect(result.uploaded.length).toBeGreaterThan(20);
      const stored = bucketFiles();
      for (const name of result.uploaded) expect(stored.get(name)?.equals(started.get(name)!), `${name} is the started release's`).toBe(true);
      expect([...stored.keys()].sort()).toEqual([...started.keys()].sort());
      expect(linkProblems(stored, SITE_URL)).toEqual([]);
    } finally {
      open();
      gcs.beforeAnswer = undefined;
    }
    // The lease is gone with the deploy: the next build keeps only the current and the previous release again.
    await nightly(7);
    expect((await readdir(`${dist}.releases`)).filter((name) => !name.startsWith('.'))).toHaveLength(2);
    expect((await readdir(`${dist}.releases`)).filter((name) => name.startsWith('.lease-'))).toEqual([]);
  }, 180_000);
});
