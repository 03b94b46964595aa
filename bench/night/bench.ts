/**
 * The operator's whole night, measured (issue 12 item 3): a production bucket
 * of N articles over the three content locales on the loopback GCS server,
 * reached by the felt CLI (child processes, the real @google-cloud/storage
 * client); 20 new articles per locale arrive in the dev bucket (the LLM is not
 * part of the measure: the night's felt time is everything but the model);
 * then publish → pull → check → build ×3 → deploy ×3, as
 * .github/workflows/content.yml runs them.
 *
 * Three nights in a row on the same buckets:
 *   cold   a runner with nothing: no content/, no .felt-cache/, no dist/,
 *          no state snapshot in the bucket, empty hosting buckets;
 *   warm   the next night on the same runner (what actions/cache restores);
 *   fresh  a new runner whose CI cache is gone, but the bucket keeps the
 *          state snapshot the previous nights wrote and the hosting buckets
 *          their sites (pull takes the articles from the packs; builds cold).
 * For each step: wall time and peak memory (/usr/bin/time), requests by kind
 * and bytes moved (the server's log), and for pull and deploy the unchanged
 * bodies moved, which must be 0.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FELT_ROOT as ROOT } from '../../shared/paths.ts';
import { startFakeGcs, type FakeGcs } from '../../tests/support/fakeGcs.ts';
import { random } from '../corpus.mjs';

const FELT = path.join(ROOT, 'bin', 'felt.js');
/**
 * `--build-felt PATH`: the felt whose `felt build` and `felt check` the nights run (default this one). A resumed
 * run can build with the felt that made the kept nights, whose build caches (keyed by felt's code) are then still
 * valid. Check goes with the build: it reads the build's article cache, which another felt's code would not trust
 * (a warm check at 100,000 articles read every article again: 21 s instead of 3).
 */
let BUILD_FELT = FELT;
/**
 * `--content-only`: publish → pull → check, without the builds and deploys: at 100,000 articles a locale's
 * site is about 150,000 files and 3 GB, more disk and hours than a shared machine may have.
 */
let CONTENT_ONLY = false;
/** `--profile DIR`: each warm step runs under node --cpu-prof, its profile written to DIR/{step}. */
let PROFILE_DIR: string | undefined;
const LOCALES = ['en_US', 'ru_RU', 'tr_TR'] as const;
/** New articles per locale each night: 20 by default; `--new 500` measures a batch night's publish, pull, build and deploy. */
let NEW_PER_LOCALE = 20;
const PROD = 'felt-magazine';
const DEV = 'felt-magazine-dev';
const site = (locale: string) => `felt-night-site-${locale.toLowerCase().replace('_', '-')}`;

interface StepFigures {
  step: string;
  seconds: number;
  /** felt's own CPU time (user + sys), which a loaded machine inflates far less than wall time; the loopback server's is not in it. */
  cpuSeconds: number;
  /**
   * The loopback GCS server's CPU time during the step (this process's, which does nothing else meanwhile): time felt
   * may have spent waiting on the stand-in for GCS, not on its own work.
   */
  serverCpuSeconds: number;
  peakMB: number;
  list: number;
  getBody: number;
  getMeta: number;
  put: number;
  patch: number;
  copy: number;
  delete: number;
  bytesIn: number;
  bytesOut: number;
  /** Article bodies downloaded by pull that were not new tonight; hosting objects uploaded with the bytes they already had. */
  unchangedMoved: number;
}

export interface NightFigures {
  night: 'cold' | 'warm' | 'fresh';
  articles: number;
  steps: StepFigures[];
  totalSeconds: number;
  totalCpuSeconds: number;
  peakMB: number;
  unchangedMoved: number;
}

const WORDS =
  'bankroll variance odds edge stake market value line closing position pot equity range bluff fold call raise river turn flop tournament cash table limit session record discipline tilt expectation probability handicap spread total parlay hedge exchange margin'.split(
    ' ',
  );

interface Corpus {
  categories: Record<string, { children: Record<string, unknown> }>;
  authors: { name: string }[];
}

/** One article of about 600 words, as felt content for `locale`. */
function article(corpus: Corpus, locale: string, slug: string, index: number, day: string, rand: () => number): Buffer {
  const sentence = (min: number, max: number) => {
    const words = Array.from({ length: min + Math.floor(rand() * (max - min)) }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 4 + Math.floor(rand() * 3) }, () => sentence(8, 18)).join(' ');
  const keys = Object.keys(corpus.categories);
  const category = keys[index % keys.length]!;
  const children = Object.keys(corpus.categories[category]!.children);
  const subcategory = children[Math.floor(rand() * children.length)];
  const author = corpus.authors[Math.floor(rand() * corpus.authors.length)]!.name;
  const sections = Array.from({ length: 4 }, (_, s) => `## Section ${s + 1}: ${sentence(3, 6).slice(0, -1)}\n\n${paragraph()}\n\n${paragraph()}`);
  const entities = subcategory
    ? `  - category: ${category}\n    subcategories:\n      - subcategory: ${subcategory}\n        subsubcategories: []\n`
    : `  - category: ${category}\n`;
  return Buffer.from(
    `---\ntitle: "${sentence(3, 7).slice(0, -1)} ${index}"\nslug: ${slug}\ndescription: "${sentence(10, 20)}"\nauthor: ${author}\ndate: ${day}\nlocale: ${locale}\nentities:\n${entities}---\n${paragraph()}\n\n${sections.join('\n\n')}\n`,
  );
}

const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 86400000).toISOString().slice(0, 10);

/** Runs felt under /usr/bin/time: wall seconds and peak resident memory. */
function felt(args: string[], cwd: string, env: NodeJS.ProcessEnv, profileDir?: string): Promise<{ seconds: number; cpuSeconds: number; peakMB: number }> {
  const bin = args[0] === 'build' || args[0] === 'check' ? BUILD_FELT : FELT;
  const node = profileDir ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [process.execPath];
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'BENCH %e %M %U %S', ...node, bin, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      const m = /BENCH ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
      if (!m || (code !== 0 && code !== 2)) return reject(new Error(`felt ${args.join(' ')} failed (${code}):\n${stderr.slice(-2000)}`));
      resolve({ seconds: Number(m[1]), cpuSeconds: Number(m[3]) + Number(m[4]), peakMB: Number(m[2]) / 1024 });
    });
  });
}

async function workspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'content', 'articles'), { recursive: true });
  for (const file of ['site.json', 'categories.json', 'authors.json', 'ads.json']) await cp(path.join(ROOT, 'content', file), path.join(dir, 'content', file));
  await cp(path.join(ROOT, 'content', 'pages'), path.join(dir, 'content', 'pages'), { recursive: true });
}

const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');

async function runNight(night: NightFigures['night'], articles: number, dir: string, gcs: FakeGcs, newSlugs: Set<string>): Promise<NightFigures> {
  const env = { ...process.env, STORAGE_EMULATOR_HOST: gcs.url, GOOGLE_CLOUD_PROJECT: 'felt-bench', NODE_ENV: 'production' };
  const storage = ['--storage', 'gcs'];
  const plan: [string, string[]][] = [
    ['publish', ['publish', '--all', '--yes', ...storage]],
    ['pull', ['pull', '--env', 'prod', '--delete', '--snapshot', ...storage]],
    ['check', ['check']],
    ...(CONTENT_ONLY
      ? []
      : [
          ...LOCALES.map((l): [string, string[]] => [`build ${l}`, ['build', '--locale', l, '--out', `dist/${l}`]]),
          ...LOCALES.map((l): [string, string[]] => [`deploy ${l}`, ['deploy', '--dist', `dist/${l}`, '--bucket', site(l), '--delete', ...storage]]),
        ]),
  ];
  const steps: StepFigures[] = [];
  for (const [step, args] of plan) {
    const hosting = step.startsWith('deploy') ? gcs.buckets.get(site(step.slice(7))) : undefined;
    const before = new Map([...(hosting ?? new Map<string, { data: Buffer }>())].map(([name, o]) => [name, o.data]));
    gcs.resetLog();
    process.stdout.write(`  ${new Date().toISOString().slice(11, 19)} ${night} ${step}…`);
    const profile = PROFILE_DIR && night === 'warm' ? path.join(PROFILE_DIR, step.replace(' ', '-')) : undefined;
    const serverBefore = process.cpuUsage();
    const { seconds, cpuSeconds, peakMB } = await felt(args, dir, env, profile);
    const server = process.cpuUsage(serverBefore);
    const serverCpuSeconds = (server.user + server.system) / 1e6;
    process.stdout.write(
      ` ${seconds.toFixed(1)} s (felt CPU ${cpuSeconds.toFixed(1)} s, server CPU ${serverCpuSeconds.toFixed(1)} s, load ${os.loadavg()[0]!.toFixed(1)})\n`,
    );
    let unchangedMoved = 0;
    if (step === 'pull')
      unchangedMoved = gcs.log.filter((r) => {
        if (r.kind !== 'object.download') return false;
        const name = decodeURIComponent(r.path.slice(r.path.lastIndexOf('/o/') + 3));
        return name.startsWith('articles/') && !newSlugs.has(name);
      }).length;
    if (hosting)
      for (const [name, object] of hosting) {
        const old = before.get(name);
        if (old && old !== object.data && md5(old) === md5(object.data)) unchangedMoved++;
      }
    const bytes = gcs.bytes();
    steps.push({
      step,
      seconds,
      cpuSeconds,
      serverCpuSeconds,
      peakMB,
      list: gcs.count('object.list'),
      getBody: gcs.count('object.download'),
      getMeta: gcs.count('object.get'),
      put: gcs.count('object.upload') + gcs.count('object.upload.start'),
      patch: gcs.count('object.patch'),
      copy: gcs.count('object.rewrite'),
      delete: gcs.count('object.delete'),
      bytesIn: bytes.in,
      bytesOut: bytes.out,
      unchangedMoved,
    });
  }
  return {
    night,
    articles,
    steps,
    totalSeconds: steps.reduce((s, x) => s + x.seconds, 0),
    totalCpuSeconds: steps.reduce((s, x) => s + x.cpuSeconds, 0),
    peakMB: Math.max(...steps.map((s) => s.peakMB)),
    unchangedMoved: steps.reduce((s, x) => s + x.unchangedMoved, 0),
  };
}

interface SizeOptions {
  withFresh: boolean;
  /** Keep the work folder and, after each night, the buckets (`--keep`): a later `--resume` goes on from there. */
  keep: boolean;
  /** Go on from a kept run: its cold night's figures, its buckets and its runner (`--resume`). */
  resume: boolean;
  /** With resume: only serve the kept buckets on the loopback server, for running steps by hand (`--serve`). */
  serve?: boolean;
}

/** What a kept run leaves beside its buckets (state.json): enough for `--resume` to go on with the next night. */
interface KeptState {
  articles: number;
  night: number;
  nights: NightFigures[];
}

async function benchSize(articles: number, work: string, options: SizeOptions): Promise<NightFigures[]> {
  const gcs = await startFakeGcs();
  const kept = path.join(work, String(articles), 'kept');
  try {
    const corpus: Corpus = {
      categories: JSON.parse(await readFile(path.join(ROOT, 'content', 'categories.json'), 'utf8')) as Corpus['categories'],
      authors: JSON.parse(await readFile(path.join(ROOT, 'content', 'authors.json'), 'utf8')) as Corpus['authors'],
    };
    let night = 0;
    let earlier: NightFigures[] = [];
    if (options.resume) {
      const state = JSON.parse(await readFile(path.join(kept, 'state.json'), 'utf8')) as KeptState;
      console.log(`\n== ${articles.toLocaleString('en')} articles: going on from the run kept in ${kept} (after night ${state.night})…`);
      await loadBuckets(gcs, kept);
      night = state.night;
      earlier = state.nights;
      if (options.serve) {
        // For profiling one step by hand (node --cpu-prof bin/felt.js …) against the kept buckets: runs until killed.
        console.log(
          `STORAGE_EMULATOR_HOST=${gcs.url} GOOGLE_CLOUD_PROJECT=felt-bench NODE_ENV=production; runner: ${path.join(work, String(articles), 'runner')}`,
        );
        await new Promise(() => {});
      }
    } else {
      console.log(`\n== ${articles.toLocaleString('en')} articles: filling the production bucket…`);
      const rand = random(42);
      for (const [i, locale] of LOCALES.entries()) {
        const count = Math.floor(articles / 3) + (i < articles % 3 ? 1 : 0);
        for (let n = 0; n < count; n++) {
          const slug = `article-${String(n).padStart(6, '0')}`;
          const body = article(corpus, locale, slug, n, day(n % 2500), rand);
          gcs.put(PROD, `articles/${locale}/${slug}.md`, body, { contentType: 'text/markdown; charset=utf-8' });
          gcs.put(DEV, `articles/${locale}/${slug}.md`, body, { contentType: 'text/markdown; charset=utf-8' });
        }
      }
      for (const locale of LOCALES) gcs.buckets.set(site(locale), new Map());
    }
    const rand = random(42 + night);
    /** Tonight's articles in the dev bucket: 20 a locale, dated after everything else. */
    const arrive = (): Set<string> => {
      night++;
      const names = new Set<string>();
      for (const locale of LOCALES)
        for (let n = 0; n < NEW_PER_LOCALE; n++) {
          const slug = `night-${night}-${n}`;
          const name = `articles/${locale}/${slug}.md`;
          gcs.put(DEV, name, article(corpus, locale, slug, 900_000 + night * 100 + n, day(2500 + night), rand), {
            contentType: 'text/markdown; charset=utf-8',
          });
          names.add(name);
        }
      return names;
    };
    const runner = path.join(work, String(articles), 'runner');
    const keep = async (nights: NightFigures[]) => {
      if (!options.keep) return;
      await saveBuckets(gcs, kept);
      await writeFile(path.join(kept, 'state.json'), JSON.stringify({ articles, night, nights } satisfies KeptState));
    };
    if (options.resume) {
      // The build's caches are keyed by felt's code (site/build/codeVersion.ts): the first night after the code
      // changed is an upgrade night (cold builds), as on a runner after a felt update; the next one is the warm night.
      // With --build-felt naming the felt that built the kept nights, its caches are valid and no upgrade night is needed.
      if (BUILD_FELT === FELT && !CONTENT_ONLY) {
        const upgrade = await runNight('warm', articles, runner, gcs, arrive());
        console.log(`  (upgrade night, not the measure: ${upgrade.totalSeconds.toFixed(1)} s)`);
      }
      const warm = await runNight('warm', articles, runner, gcs, arrive());
      await keep([earlier[0]!, warm]);
      return [earlier[0]!, warm];
    }
    await workspace(runner);
    const cold = await runNight('cold', articles, runner, gcs, arrive());
    await keep([cold]);
    const warm = await runNight('warm', articles, runner, gcs, arrive());
    await keep([cold, warm]);
    if (!options.withFresh) return [cold, warm];
    const fresh = path.join(work, String(articles), 'fresh-runner');
    await workspace(fresh);
    const fromSnapshot = await runNight('fresh', articles, fresh, gcs, arrive());
    return [cold, warm, fromSnapshot];
  } finally {
    await gcs.close();
  }
}

/**
 * The fake server's buckets to files, one per bucket: each object a frame of
 * [header length (4 bytes)][header JSON][data], the header keeping the
 * generation, so the publish record and preconditions still hold after a resume.
 */
async function saveBuckets(gcs: FakeGcs, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const [bucket, objects] of gcs.buckets) {
    const out = createWriteStream(path.join(folder, `${bucket}.bucket`));
    for (const [name, object] of objects) {
      const { data, ...rest } = object;
      const header = Buffer.from(JSON.stringify({ name, ...rest, size: data.length }));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(header.length);
      out.write(length);
      out.write(header);
      if (!out.write(data)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
  }
  await writeFile(path.join(folder, 'websites.json'), JSON.stringify([...gcs.websites]));
}

async function loadBuckets(gcs: FakeGcs, folder: string): Promise<void> {
  let newest = 0;
  for (const file of (await readdir(folder)).filter((f) => f.endsWith('.bucket'))) {
    const bytes = await readFile(path.join(folder, file));
    const objects = new Map<string, StoredObjectOf>();
    for (let at = 0; at < bytes.length;) {
      const headerLength = bytes.readUInt32BE(at);
      const { name, size, ...rest } = JSON.parse(bytes.subarray(at + 4, at + 4 + headerLength).toString('utf8')) as {
        name: string;
        size: number;
        generation: number;
      };
      const start = at + 4 + headerLength;
      objects.set(name, { ...(rest as unknown as Omit<StoredObjectOf, 'data'>), data: Buffer.from(bytes.subarray(start, start + size)) });
      newest = Math.max(newest, rest.generation);
      at = start + size;
    }
    gcs.buckets.set(file.slice(0, -'.bucket'.length), objects);
  }
  for (const [bucket, pages] of JSON.parse(await readFile(path.join(folder, 'websites.json'), 'utf8')) as [string, { mainPageSuffix?: string }][])
    gcs.websites.set(bucket, pages);
  // The server's generation clock starts where the kept run's started: move it past the newest kept generation,
  // so a write never gets a generation an object already had.
  for (let clock = gcs.buckets.get(PROD)!.values().next().value!.generation; clock <= newest; clock++) gcs.put('felt-bench-clock', 'tick', '');
  gcs.buckets.delete('felt-bench-clock');
}

type StoredObjectOf = FakeGcs['buckets'] extends Map<string, Map<string, infer O>> ? O : never;

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
/** A night kept by a bench without CPU times (`--resume` of an older run) has none to show. */
const cpu = (seconds: number | undefined) => (seconds === undefined || Number.isNaN(seconds) ? '–' : seconds.toFixed(1));

export function printNights(nights: NightFigures[]): void {
  const [cold, warm, fresh] = nights as [NightFigures, NightFigures, NightFigures | undefined];
  console.log(`\n### ${cold.articles.toLocaleString('en')} articles (three locales), ${NEW_PER_LOCALE} new per locale each night\n`);
  console.log(
    `| step | cold s | warm s |${fresh ? ' fresh+snapshot s |' : ''} cold / warm CPU s | warm server CPU s | warm requests: list / GET body / GET meta / PUT / PATCH / copy / DELETE | warm MB in / out | warm peak MB |`,
  );
  console.log(`|---|---:|---:|${fresh ? '---:|' : ''}---:|---:|---|---:|---:|`);
  warm.steps.forEach((w, i) => {
    const c = cold.steps[i]!;
    const f = fresh ? ` ${fresh.steps[i]!.seconds.toFixed(1)} |` : '';
    console.log(
      `| ${w.step} | ${c.seconds.toFixed(1)} | ${w.seconds.toFixed(1)} |${f} ${cpu(c.cpuSeconds)} / ${cpu(w.cpuSeconds)} | ${cpu(w.serverCpuSeconds)} | ${w.list} / ${w.getBody} / ${w.getMeta} / ${w.put} / ${w.patch} / ${w.copy} / ${w.delete} | ${mb(w.bytesIn)} / ${mb(w.bytesOut)} | ${Math.round(w.peakMB)} |`,
    );
  });
  console.log(
    `| **total** | **${cold.totalSeconds.toFixed(1)}** | **${warm.totalSeconds.toFixed(1)}** |${fresh ? ` **${fresh.totalSeconds.toFixed(1)}** |` : ''} **${cpu(cold.totalCpuSeconds)} / ${cpu(warm.totalCpuSeconds)}** | **${cpu(warm.steps.reduce((s, x) => s + (x.serverCpuSeconds ?? NaN), 0))}** | | | ${Math.round(warm.peakMB)} |`,
  );
  const sum = (n: NightFigures, k: 'getBody' | 'put' | 'bytesIn' | 'bytesOut') => n.steps.reduce((s, x) => s + x[k], 0);
  console.log('\n| night | GET bodies | PUTs | MB to the server / from it | unchanged bodies moved | peak MB |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const n of nights)
    console.log(
      `| ${n.night} | ${sum(n, 'getBody')} | ${sum(n, 'put')} | ${mb(sum(n, 'bytesIn'))} / ${mb(sum(n, 'bytesOut'))} | ${n.unchangedMoved} | ${Math.round(n.peakMB)} |`,
    );
  const ratio = warm.totalSeconds / cold.totalSeconds;
  const cpuRatio = warm.totalCpuSeconds / cold.totalCpuSeconds;
  const slowest = [...warm.steps].sort((a, b) => b.seconds - a.seconds)[0]!;
  console.log(
    `\nwarm/cold = ${ratio.toFixed(3)} (target ≤ 0.1: ${ratio <= 0.1 ? 'met' : 'missed'}; felt's CPU time: ${Number.isNaN(cpuRatio) ? '–' : cpuRatio.toFixed(3)}); warm ${warm.totalSeconds.toFixed(1)} s${cold.articles >= 100_000 ? ` (target ≤ 60 s: ${warm.totalSeconds <= 60 ? 'met' : 'missed'})` : ''}; unchanged bodies moved on the warm night: ${warm.unchangedMoved}; warm's slowest step: ${slowest.step} ${slowest.seconds.toFixed(1)} s`,
  );
}

export async function runNightBench(options: {
  sizes: number[];
  work?: string;
  newPerLocale?: number;
  fresh?: boolean;
  keep?: boolean;
  resume?: boolean;
  serve?: boolean;
  buildFelt?: string;
  profile?: string;
  contentOnly?: boolean;
}): Promise<NightFigures[][]> {
  CONTENT_ONLY = Boolean(options.contentOnly);
  NEW_PER_LOCALE = options.newPerLocale ?? NEW_PER_LOCALE;
  BUILD_FELT = options.buildFelt ? path.resolve(options.buildFelt) : FELT;
  PROFILE_DIR = options.profile && path.resolve(options.profile);
  const work = options.work ?? path.join(os.tmpdir(), 'felt-bench-night');
  const keep = Boolean(options.keep || options.resume);
  const results: NightFigures[][] = [];
  try {
    for (const size of options.sizes) {
      const nights = await benchSize(size, work, {
        withFresh: (options.fresh ?? true) && !options.resume,
        keep,
        resume: Boolean(options.resume),
        serve: options.serve,
      });
      printNights(nights);
      results.push(nights);
    }
  } finally {
    if (!keep) await rm(work, { recursive: true, force: true });
  }
  return results;
}
