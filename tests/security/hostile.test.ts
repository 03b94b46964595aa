/**
 * Issue 15: hostile content never crashes felt or eats the machine. Each
 * input of the corpus takes the place of one file of a content folder (an
 * article, an info page, site.json, categories.json, authors.json, ads.json)
 * and goes through `felt check` and `felt build` as an operator runs them,
 * in a child process held to 10 s of CPU and a 512 MB heap (a blowup dies, it
 * cannot pass). CPU, not wall time: the full test run keeps both cores busy, and
 * a build that needs 3 s of CPU there has taken 10.3 s of wall; a blowup spends
 * CPU, and the wall-time kill (60 s) stops one that hangs instead. Every run must end with exit 1, one `felt:` line, the line
 * of each input naming its file (and the limit, where one was hit), no stack
 * trace, and the previous dist/ byte for byte as it was.
 *
 * Small inputs are committed (tests/fixtures/security/hostile/); large ones,
 * and those git cannot hold (a FIFO, a socket, a folder, links), are made
 * here. Inputs share a run when they take the place of different files: one
 * line per file still names each, and the run's time and memory bound them
 * all together.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureCopy, tempDir } from '../site/helpers.ts';
import { cleanEnv, FELT_BIN, REPO, runFelt, STACK_TRACE } from '../support/cli.ts';

const CORPUS = fileURLToPath(new URL('../fixtures/security/hostile', import.meta.url));
const CPU_LIMIT_MS = 10_000;
const WALL_KILL_MS = 60_000;
const HEAP_MB = 512;
const MB = 1024 * 1024;

interface HostileInput {
  /** What it is, as the test names it. */
  name: string;
  /** The file of the content folder it takes the place of. */
  target: string;
  /** Puts it there (the content folder is given for what points into it). */
  make(file: string, content: string): Promise<void>;
  /** One line naming the target must match each; no other line may name it. */
  expect: RegExp[];
  /** Lines naming the target, when a list of problems is capped (its first lines then match `expect`). */
  lines?: number;
}

// Ways to make an input.
const committed = (name: string) => (file: string) => cp(path.join(CORPUS, name), file);
const text = (make: () => string | Buffer) => (file: string) => writeFile(file, make());
const folder = () => (file: string) => mkdir(file).then(() => undefined);
const fifo = () => async (file: string) => {
  const made = spawnSync('mkfifo', [file]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
};
const sockets: net.Server[] = [];
const socket = () => (file: string) =>
  new Promise<void>((resolve, reject) => {
    const server = net.createServer().on('error', reject);
    sockets.push(server);
    server.listen(file, () => resolve());
  });
const link = (to: string) => (file: string) => symlink(to, file);
/** The fixture's own file of that name, changed. */
const fixtureJson = (name: string, change: (value: Record<string, unknown>) => unknown) => async (file: string, content: string) => {
  void content;
  const value = JSON.parse(await readFile(path.join(REPO, 'tests', 'fixtures', 'site', name), 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify(change(value) ?? value, null, 2));
};
const nested = (depth: number, open = '[', close = ']', inner = '') => open.repeat(depth) + inner + close.repeat(depth);
/** A valid article around a frontmatter change. */
const article = (slug: string, frontmatter: string, body = 'Body text.\n') =>
  `---\ntitle: A hostile input\nslug: ${slug}\ndescription: One input of the corpus.\nauthor: Mara Lindqvist\ndate: 2026-01-01\nlocale: en_US\nentities:\n  - category: bettingStrategies\n${frontmatter}\n---\n${body}`;

const ALIASES = /frontmatter is not valid YAML: its aliases \(\*name\) expand to too much data \(more than the limit of 50 aliases\)/;
const YAML_NESTING = /frontmatter nests lists and maps deeper than the limit of 64 levels \(see README, "Limits"\)/;
const JSON_NESTING = /:\d+: lists and objects are nested deeper than the limit of 64 levels \(see README, "Limits"\)/;
const tooLarge = (size: string, limit: string) => new RegExp(`: file is ${size}, larger than the limit of ${limit} \\(see README, "Limits"\\)`);
const NOT_A_FILE = (what: string) => new RegExp(`: is ${what.replace(/[()]/g, '\\$&')}, not a file \\(remove it or move it out of the content folder\\)`);
const LINKED_OUT = /: is a symbolic link to \/\S+, outside the content folder \(copy the file into the content folder instead of linking to it\)/;
const SITE_URL = /must be https:\/\/ and a host name, with a port if any \(1–65535\) and no path/;
const en = (name: string) => `articles/en_US/${name}`;

const HOSTILE: HostileInput[] = [
  // The seven rows of issue 15.
  {
    name: 'a "billion laughs" in otherwise valid frontmatter fields',
    target: en('billion-laughs.md'),
    make: committed('articles/billion-laughs.md'),
    expect: [ALIASES],
  },
  {
    name: 'ads.json of 50 MB',
    target: 'ads.json',
    make: text(() => JSON.stringify({ sapeNewUrl: `<a href="https://ads.example/">${'x'.repeat(50 * MB)}</a>`, sapeLinks: {} })),
    expect: [tooLarge('50 MB', '4 MB')],
  },
  { name: 'a folder named like an article', target: en('something.md'), make: folder(), expect: [NOT_A_FILE('a folder')] },
  {
    name: 'categories.json nested 10,000 levels deep',
    target: 'categories.json',
    make: text(() => '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)),
    expect: [JSON_NESTING],
  },
  { name: 'site.json nested 100,000 levels deep', target: 'site.json', make: text(() => nested(100_000)), expect: [JSON_NESTING] },
  {
    name: 'site.url that does not parse',
    target: 'site.json',
    make: fixtureJson('site.json', (s) => ({ ...s, url: 'https://[fixture.example' })),
    expect: [new RegExp(`field "url": url ${SITE_URL.source}`)],
  },
  {
    name: "site.url with an odd port, and other locales' addresses that are no https origin",
    target: 'site.json',
    make: fixtureJson('site.json', (s) => ({
      ...s,
      url: 'https://fixture.example:99999',
      localeUrls: { ru_RU: 'https://user:secret@ru.fixture.example', tr_TR: 'http://tr.fixture.example/magazine' },
    })),
    expect: [
      new RegExp(`field "url": url ${SITE_URL.source}`),
      new RegExp(`field "localeUrls.ru_RU": localeUrls.ru_RU ${SITE_URL.source}`),
      new RegExp(`field "localeUrls.tr_TR": localeUrls.tr_TR ${SITE_URL.source}`),
    ],
  },
  {
    name: 'bad YAML in an info page',
    target: 'pages/en/about-us.md',
    make: committed('pages/bad-yaml.md'),
    expect: [/about-us\.md:2: frontmatter is not valid YAML: Missing closing "quote/],
  },

  // YAML: tags, anchors, aliases and merge keys.
  { name: 'sixty aliases of one anchor', target: en('aliases-flat.md'), make: committed('articles/aliases-flat.md'), expect: [ALIASES] },
  {
    name: 'a merge key (<<) standing in for a required field',
    target: en('merge-keys.md'),
    make: committed('articles/merge-keys.md'),
    expect: [/field "description": description is required/],
  },
  {
    name: 'an anchored key aliased as a key',
    target: en('anchors-on-keys.md'),
    make: committed('articles/anchors-on-keys.md'),
    expect: [/frontmatter is not valid YAML: Map keys must be unique/],
  },
  {
    name: 'a !!js/function tag',
    target: en('tag-js-function.md'),
    make: committed('articles/tag-js-function.md'),
    expect: [/:10: frontmatter is not valid YAML: .*js\/function/],
  },
  {
    name: 'a !!python/object tag',
    target: en('tag-python.md'),
    make: committed('articles/tag-python.md'),
    expect: [/:10: frontmatter is not valid YAML: .*python/],
  },
  {
    name: 'a custom !include tag',
    target: en('tag-custom.md'),
    make: committed('articles/tag-custom.md'),
    expect: [/:10: frontmatter is not valid YAML: .*!include/],
  },
  { name: 'a !!binary tag', target: en('tag-binary.md'), make: committed('articles/tag-binary.md'), expect: [/:10: frontmatter is not valid YAML: .*binary/] },
  { name: 'a !!set tag', target: en('tag-set.md'), make: committed('articles/tag-set.md'), expect: [/:10: frontmatter is not valid YAML: .*set/] },
  { name: 'a "billion laughs" in an info page', target: 'pages/tr/about-us.md', make: committed('pages/billion-laughs.md'), expect: [ALIASES] },

  // Nesting.
  {
    name: 'frontmatter in flow lists 20,000 deep',
    target: en('deep-flow.md'),
    make: text(() => article('deep-flow', `extra: ${nested(20_000)}`)),
    expect: [YAML_NESTING],
  },
  {
    name: 'frontmatter in flow maps 20,000 deep, unclosed',
    target: en('deep-flow-maps.md'),
    make: text(() => article('deep-flow-maps', `extra: ${'{a: '.repeat(15_000)}`)),
    expect: [YAML_NESTING],
  },
  {
    name: 'frontmatter in block maps 200 deep',
    target: en('deep-block.md'),
    make: text(() => article('deep-block', Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1')),
    expect: [YAML_NESTING],
  },
  {
    name: 'frontmatter in compact lists ("- - - …") 20,000 deep',
    target: en('deep-dashes.md'),
    make: text(() => article('deep-dashes', `extra:\n  ${'- '.repeat(20_000)}1`)),
    expect: [YAML_NESTING],
  },
  { name: 'authors.json nested 1,000 levels deep', target: 'authors.json', make: text(() => nested(1000)), expect: [JSON_NESTING] },
  {
    name: 'ads.json nested 100,000 levels deep, in a string-looking comment',
    target: 'ads.json',
    make: text(() => `{"sapeNewUrl": "", /*"*/ "sapeLinks": ${nested(100_000)}}`),
    expect: [JSON_NESTING],
  },

  // Size: huge scalars, long lines, many keys.
  {
    name: 'an article of 2 MB',
    target: en('two-megabytes.md'),
    make: text(() => article('two-megabytes', '', 'lorem ipsum '.repeat((2 * MB) / 12))),
    expect: [tooLarge('2 MB', '1 MB')],
  },
  {
    name: 'a frontmatter scalar of 900 KB',
    target: en('huge-scalar.md'),
    make: text(() => article('huge-scalar', `extra: "${'x'.repeat(900 * 1024)}"`)),
    expect: [/frontmatter is 900\.\d KB, larger than the limit of 64 KB \(end it with a --- line; see README, "Limits"\)/],
  },
  {
    name: 'a frontmatter that never closes (600 KB after its opening ---, said as such before any YAML is read)',
    target: en('never-closes.md'),
    make: text(() => `---\ntitle: Never closes\n${'line of text\n'.repeat(50_000)}`),
    expect: [/never-closes\.md:1: frontmatter opened on line 1 is never closed \(add a line with --- after its last field\)/],
  },
  {
    name: 'a description of 9,000 characters on one line',
    target: en('long-line.md'),
    make: text(() => article('long-line', '').replace('description: One input of the corpus.', `description: ${'long '.repeat(1800)}`)),
    expect: [/field "description": description must be at most 400 characters/],
  },
  {
    name: 'an info page of 2 MB, its body one line',
    target: 'pages/en/terms.md',
    make: text(() => `---\ntitle: Terms\ndescription: Terms.\n---\n${'x'.repeat(2 * MB)}`),
    expect: [tooLarge('2 MB', '1 MB')],
  },
  {
    name: 'a frontmatter of 5,000 tiny keys and no slug',
    target: en('tiny-keys.md'),
    make: text(() => article('tiny-keys', Array.from({ length: 5000 }, (_, i) => `k${i}: ${i}`).join('\n')).replace('slug: tiny-keys\n', '')),
    expect: [/field "slug": slug is required/],
  },
  {
    name: 'a frontmatter of 5,000 tiny keys, the first one repeated at the end',
    target: en('tiny-keys-repeated.md'),
    make: text(() => article('tiny-keys-repeated', Array.from({ length: 5000 }, (_, i) => `k${i}: ${i}`).join('\n') + '\nk0: again')),
    expect: [/:5010: frontmatter is not valid YAML: Map keys must be unique/],
  },
  {
    name: 'site.json of 2,000,000 tiny keys (22 MB)',
    target: 'site.json',
    make: text(() => `{${Array.from({ length: 2_000_000 }, (_, i) => `"${i}":0`).join(',')}}`),
    expect: [tooLarge('2\\d\\.\\d MB', '1 MB')],
  },
  {
    name: 'categories.json of 80,000 tiny keys (just under 1 MB)',
    target: 'categories.json',
    make: text(() => `{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":0`).join(',')}}`),
    expect: [/:1: holds more values and keys than the limit of 50,000 \(see README, "Limits"\)/],
  },
  {
    name: 'categories.json of 24,000 tiny keys, each wrong',
    target: 'categories.json',
    make: text(() => `{${Array.from({ length: 24_000 }, (_, i) => `"k${i}":0`).join(',')}}`),
    expect: [
      /:1 field "k0": k0 must be an object/,
      /:1 field "k99": k99 must be an object/,
      /:1: and 23,900 more problems in this file \(only the first 100 are listed\)/,
    ],
    lines: 101,
  },
  {
    name: 'authors.json of 100,000 empty authors',
    target: 'authors.json',
    make: text(() => `[${Array(100_000).fill('{}').join(',')}]`),
    expect: [/:1: holds more values and keys than the limit of 50,000/],
  },
  {
    name: 'authors.json of 40,000 empty authors (200,000 problems)',
    target: 'authors.json',
    make: text(() => `[${Array(40_000).fill('{}').join(',')}]`),
    expect: [/:1 field "0\.name": 0\.name is required/, /:1: and 199,900 more problems in this file/],
    lines: 101,
  },
  {
    name: 'a site title of 900 KB',
    target: 'site.json',
    make: fixtureJson('site.json', (s) => ({ ...s, title: 'T'.repeat(900 * 1024) })),
    expect: [/field "title": title must be at most 10,000 characters, the limit/],
  },
  {
    name: 'a brand of 300 characters (it names the logo file) and a NUL in the title',
    target: 'site.json',
    make: fixtureJson('site.json', (s) => ({ ...s, brand: 'b'.repeat(300), title: 'Felt\u0000Magazine' })),
    expect: [
      /field "brand": brand must be at most 200 characters, the limit: it names a file or folder/,
      /field "title": title must not contain control characters/,
    ],
  },
  {
    name: 'a category slug of 300 characters',
    target: 'categories.json',
    make: fixtureJson('categories.json', (c) => void ((c.bettingStrategies as { slug: string }).slug = 'b'.repeat(300))),
    expect: [/field "bettingStrategies\.slug": bettingStrategies\.slug must be at most 200 characters/],
  },
  {
    name: 'an ad snippet of 3 MB in an ads.json under its limit',
    target: 'ads.json',
    make: text(() => JSON.stringify({ sapeNewUrl: `<a href="https://ads.example/">${'x'.repeat(3 * MB)}</a>`, sapeLinks: {} })),
    expect: [/field "sapeNewUrl": sapeNewUrl is 3 MB, larger than the limit of 8 KB for an ad snippet \(see README, "Limits"\)/],
  },

  // NUL bytes and binary junk.
  {
    name: 'NUL bytes in an article',
    target: en('nul-bytes.md'),
    make: text(() => article('nul-bytes', 'extra: "a\u0000b"')),
    expect: [/: file contains binary data \(NUL bytes\)/],
  },
  {
    name: 'NUL bytes in site.json',
    target: 'site.json',
    make: text(() => Buffer.from('{"title": "Felt\0\0\0"}')),
    expect: [/:1: is not valid JSON: a string holds a control character/],
  },

  // File shapes: not a file, or not in the content folder.
  { name: 'a FIFO where an article should be', target: en('fifo.md'), make: fifo(), expect: [NOT_A_FILE('a named pipe (FIFO)')] },
  { name: 'a socket where an article should be', target: en('socket.md'), make: socket(), expect: [NOT_A_FILE('a socket')] },
  { name: 'a symbolic link out of content/ (/etc/hostname)', target: en('link-out.md'), make: link('/etc/hostname'), expect: [LINKED_OUT] },
  { name: 'a symbolic link to /dev/zero', target: en('zero.md'), make: link('/dev/zero'), expect: [LINKED_OUT] },
  { name: 'a symbolic link to nothing', target: en('dangling.md'), make: link('no-such-file.md'), expect: [/: is a symbolic link to nothing that exists/] },
  {
    name: 'a symbolic link inside content/ to a FIFO',
    target: en('link-to-fifo.md'),
    make: async (file, content) => {
      await fifo()(path.join(content, 'a-fifo'));
      await symlink(path.join(content, 'a-fifo'), file);
    },
    expect: [NOT_A_FILE('a named pipe (FIFO)')],
  },
  { name: 'a folder where an info page should be', target: 'pages/en/privacy-policy.md', make: folder(), expect: [NOT_A_FILE('a folder')] },
  { name: 'a FIFO where an info page should be', target: 'pages/ru/about-us.md', make: fifo(), expect: [NOT_A_FILE('a named pipe (FIFO)')] },
  { name: 'a FIFO as site.json', target: 'site.json', make: fifo(), expect: [NOT_A_FILE('a named pipe (FIFO)')] },
  { name: 'a FIFO as ads.json', target: 'ads.json', make: fifo(), expect: [NOT_A_FILE('a named pipe (FIFO)')] },
  { name: 'a folder as categories.json', target: 'categories.json', make: folder(), expect: [NOT_A_FILE('a folder')] },
  { name: 'site.json linked to /etc/passwd', target: 'site.json', make: link('/etc/passwd'), expect: [LINKED_OUT] },
  { name: 'authors.json linked to /proc/self/environ', target: 'authors.json', make: link('/proc/self/environ'), expect: [LINKED_OUT] },
];

/** Inputs into runs: never two for the same file in one run, and the runs about even. */
function runsOf(inputs: HostileInput[]): HostileInput[][] {
  const runs: HostileInput[][] = [];
  for (const input of inputs) {
    const free = runs.filter((run) => !run.some((other) => other.target === input.target));
    const run = free.sort((a, b) => a.length - b.length)[0];
    if (run) run.push(input);
    else runs.push([input]);
  }
  return runs;
}

interface Child {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** CPU time of the child, user and system, every thread (what the kernel counted). */
  cpuMs: number;
  /** Peak resident memory of the child, in bytes (what the kernel counted, worker threads included). */
  peakRss: number;
}

let work: string;
let previousDist: string;
let usageHook: string;

/** felt in a child held to the heap cap and killed after WALL_KILL_MS, its CPU time and peak memory written by a hook as it exits. */
function runLimited(args: string[]): Promise<Child> {
  const usageFile = path.join(work, `usage-${process.hrtime.bigint()}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', usageHook, FELT_BIN, ...args], {
      cwd: REPO,
      env: cleanEnv({ FELT_TEST_USAGE_FILE: usageFile }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), WALL_KILL_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      readFile(usageFile, 'utf8').then(
        (usage) => {
          const { cpuMs, peakRss } = JSON.parse(usage) as { cpuMs: number; peakRss: number };
          resolve({ code, signal, stdout, stderr, ms, cpuMs, peakRss });
        },
        () => resolve({ code, signal, stdout, stderr, ms, cpuMs: Number.NaN, peakRss: Number.NaN }),
      );
    });
  });
}

/** Every file under a folder with a digest of its bytes: what "untouched" is compared by. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return files;
}

interface RunResult {
  inputs: HostileInput[];
  content: string;
  check: Child;
  build: Child;
  distBefore: Record<string, string>;
  distAfter: Record<string, string>;
  outFolderAfter: string[];
}

const RUNS = runsOf(HOSTILE);
const results: RunResult[] = [];

beforeAll(async () => {
  work = await tempDir('felt-hostile-');
  usageHook = path.join(work, 'usage-at-exit.mjs');
  await writeFile(
    usageHook,
    [
      "import { writeFileSync } from 'node:fs';",
      "process.on('exit', () => {",
      '  const usage = process.resourceUsage();',
      '  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;',
      '  writeFileSync(process.env.FELT_TEST_USAGE_FILE, JSON.stringify({ cpuMs, peakRss: usage.maxRSS * 1024 }));',
      '});',
      '',
    ].join('\n'),
  );
  // The site a failed build must leave as it was.
  const valid = await fixtureCopy();
  previousDist = path.join(work, 'previous-dist');
  const built = await runFelt(['build', '--content', valid, '--out', previousDist], { timeoutMs: 60_000 });
  expect(built.code, built.stderr).toBe(0);

  // Two runs at a time: the machine has two cores, and each child is timed on its own.
  const limit = pLimit(2);
  await Promise.all(
    RUNS.map((inputs, i) =>
      limit(async () => {
        const content = await fixtureCopy();
        for (const input of inputs) {
          const file = path.join(content, input.target);
          await rm(file, { recursive: true, force: true });
          await mkdir(path.dirname(file), { recursive: true });
          await input.make(file, content);
        }
        const outParent = path.join(work, `run-${i}`);
        const out = path.join(outParent, 'dist');
        await cp(previousDist, out, { recursive: true });
        const distBefore = await snapshot(out);
        const check = await runLimited(['check', '--content', content]);
        const build = await runLimited(['build', '--content', content, '--out', out]);
        results[i] = { inputs, content, check, build, distBefore, distAfter: await snapshot(out), outFolderAfter: await readdir(outParent) };
      }),
    ),
  );
}, 300_000);

afterAll(async () => {
  await Promise.all(sockets.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The problem lines of a command: check lists them on stdout after "error", build on stderr before its felt: line. */
function problemLines(command: 'check' | 'build', child: Child): string[] {
  if (command === 'check')
    return child.stdout
      .split('\n')
      .filter((line) => line.startsWith('error '))
      .map((line) => line.replace(/^error\s+/, ''));
  // A build that takes over a second says so first ("building: loading content, …").
  return child.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('felt: ') && !line.startsWith('building'));
}

describe(`${HOSTILE.length} hostile inputs through felt check and felt build`, () => {
  it('are spread over runs that never hold two inputs for one file', () => {
    for (const run of RUNS) expect(new Set(run.map((input) => input.target)).size).toBe(run.length);
    expect(RUNS.flat()).toHaveLength(HOSTILE.length);
  });

  for (const command of ['check', 'build'] as const) {
    it.each(RUNS.map((inputs, i) => [i + 1, inputs.map((input) => input.target).join(', '), i] as const))(
      `felt ${command}, run %i (%s): exit 1 within ${CPU_LIMIT_MS / 1000} s of CPU and ${HEAP_MB} MB, one line naming each file, no stack trace`,
      (_run, _targets, i) => {
        const { inputs, content, [command]: child } = results[i]!;
        const all = `${child.stdout}\n${child.stderr}`;
        expect(child.signal, `killed after ${Math.round(child.ms)} ms:\n${all}`).toBeNull();
        expect(child.code, all).toBe(1);
        expect(child.cpuMs, `${Math.round(child.ms)} ms of wall`).toBeLessThan(CPU_LIMIT_MS);
        expect(child.peakRss / MB).toBeLessThan(HEAP_MB);
        expect(all).not.toMatch(STACK_TRACE);
        expect(all).not.toMatch(/unexpected failure|please report/);
        const feltLines = child.stderr.split('\n').filter((line) => line.startsWith('felt: '));
        expect(feltLines, child.stderr).toEqual([
          expect.stringMatching(command === 'check' ? /^felt: \d+ errors? in content or UI strings\./ : /^felt: \d+ problems? in content\./),
        ]);
        expect(child.stderr.trimEnd().split('\n').at(-1)).toMatch(/^felt: /);
        const lines = problemLines(command, child);
        for (const input of inputs) {
          const shown = path.join(content, input.target);
          const naming = lines.filter((line) => line.startsWith(`${shown}:`) || line.startsWith(`${shown} `));
          expect(naming.length, `${input.name}:\n${naming.join('\n')}`).toBe(input.lines ?? input.expect.length);
          for (const pattern of input.expect)
            expect(
              naming.filter((line) => pattern.test(line)),
              `${input.name}: ${pattern} in\n${naming.join('\n')}`,
            ).toHaveLength(1);
        }
        // Nothing else is reported: each line names one of this run's inputs.
        const targets = inputs.map((input) => path.join(content, input.target));
        for (const line of lines)
          expect(
            targets.some((target) => line.startsWith(`${target}:`) || line.startsWith(`${target} `)),
            line,
          ).toBe(true);
      },
    );
  }

  it('leave the previous dist/ byte for byte as it was, with nothing beside it', () => {
    for (const result of results) {
      expect(result.distAfter).toEqual(result.distBefore);
      expect(result.outFolderAfter).toEqual(['dist']);
    }
  });
});
