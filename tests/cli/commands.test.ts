/**
 * The commands through the CLI's own entry point (main), as an operator or a
 * CI job runs them: exit codes, one line per error, --json for scripts, and
 * no API key in anything printed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { startFakeGcs, type FakeGcs } from '../support/fakeGcs.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fakeOpenAi.ts';
import { makeFixture, type Fixture } from '../support/fixtureSite.ts';

const KEY = 'sk-live-cli-secret-9876543210';
let llm: FakeOpenAi;
let gcs: FakeGcs;
let fixture: Fixture;
let printed: string[];

beforeAll(async () => {
  llm = await startFakeOpenAi();
  gcs = await startFakeGcs();
});
afterAll(async () => {
  await llm.close();
  await gcs.close();
});
beforeEach(async () => {
  fixture = await makeFixture();
  printed = [];
  process.env.OPENAI_API_KEY = KEY;
  process.env.OPENAI_BASE_URL = llm.url;
  process.exitCode = undefined;
  const capture = (chunk: unknown) => (printed.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture as never);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture as never);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(`${args.join(' ')}\n`));
  llm.reply = () => undefined;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fixture.cleanup();
});

const felt = (...args: string[]) => main(['node', 'felt', ...args, '--content', fixture.contentDir]);

describe.each(['local', 'gcs'] as const)('felt commands on %s storage', (kind) => {
  const storage = () => (kind === 'gcs' ? ['--storage', 'gcs', '--storage-endpoint', gcs.url] : ['--storage', 'local']);

  it('generate → publish → pull run end to end, exit 0, and say nothing secret', async () => {
    expect(await felt('generate', '--locale', 'en_US', '--count', '2', '--date', '2026-05-01', ...storage())).toBe(0);
    expect(await felt('publish', '--all', ...storage())).toBe(1);
    expect(printed.join('')).toMatch(/production not written: 2 articles would change\. check the plan above and rerun with --yes/);
    expect(await felt('publish', '--all', '--yes', ...storage())).toBe(0);
    printed.length = 0;
    expect(await felt('pull', '--json', ...storage())).toBe(0);
    const result = JSON.parse(printed.join('')) as { download: string[] };
    expect(result.download).toHaveLength(2);
    expect(printed.join('')).not.toContain(KEY);
  });
});

describe('felt command errors', () => {
  it('fails with one line and exit 1 when articles fail, never showing the key', async () => {
    llm.reply = () => ({ status: 401 });
    const code = await felt('generate', '--locale', 'en_US', '--count', '1');
    expect(code).toBe(1);
    const out = printed.join('');
    expect(out).toMatch(/felt: generate: 1 failed \(listed above\)/);
    expect(out).toMatch(/refused the API key/);
    expect(out).not.toContain(KEY);
  });

  it("says commander's refusals (a typo'd flag or command, a value not among the choices) as one felt: line, exit 1", async () => {
    const refusals: [string[], string][] = [
      [['build', '--ouput', 'x'], "felt: unknown option '--ouput' (did you mean --out?)"],
      [['bulid'], "felt: unknown command 'bulid' (did you mean build?)"],
      [['build', '--locale', 'fr_FR'], "felt: option '--locale <locale>' argument 'fr_FR' is invalid. Allowed choices are en_US, ru_RU, tr_TR."],
    ];
    for (const [args, line] of refusals) {
      printed.length = 0;
      expect(await main(['node', 'felt', ...args]), args.join(' ')).toBe(1);
      expect(printed.join(''), args.join(' ')).toBe(`${line}\n`);
    }
  });

  it('rejects bad flags with a clear line', async () => {
    expect(await felt('generate', '--locale', 'fr_FR', '--count', '1')).toBe(1);
    expect(printed.join('')).toMatch(/--locale must be one of en_US, ru_RU, tr_TR/);
    expect(await felt('generate', '--locale', 'en_US', '--count', '1', '--category', 'astrology')).toBe(1);
    expect(printed.join('')).toMatch(/--category "astrology" is not a configured category/);
    expect(await felt('publish')).toBe(1);
    expect(printed.join('')).toMatch(/--slug SLUG \(repeatable\) or --all/);
    expect(await felt('deploy', '--bucket', 'site', '--dist', `${fixture.root}/missing`)).toBe(1);
    expect(printed.join('')).toMatch(/is missing or empty\. run felt build first/);
    // The built site by the name `felt build --out` gives it, too.
    printed.length = 0;
    expect(await felt('deploy', '--bucket', 'site', '--out', `${fixture.root}/elsewhere`)).toBe(1);
    expect(printed.join('')).toContain(`${fixture.root}/elsewhere is missing or empty. run felt build first`);
    // Both names at once: which folder was meant is not guessed (with --delete, the wrong one would take the other's files off the bucket).
    printed.length = 0;
    expect(await felt('deploy', '--bucket', 'site', '--out', `${fixture.root}/a`, '--dist', `${fixture.root}/b`)).toBe(1);
    expect(printed.join('')).toContain("option '--out <dir>' cannot be used with option '--dist <dir>'");
  });

  it('refuses a --date that is not a calendar date before asking the model anything', async () => {
    for (const bad of ['2026-13-45', 'tomorrow', '2026-02-30', '2026-3-4']) {
      llm.chats.length = 0;
      printed.length = 0;
      expect(await felt('generate', '--locale', 'en_US', '--count', '1', '--date', bad, '--storage', 'local'), bad).toBe(1);
      expect(printed.join('').trim().split('\n'), bad).toEqual([expect.stringContaining(`felt: --date must be a calendar date like 2026-03-14, not "${bad}"`)]);
      expect(llm.chats, bad).toHaveLength(0);
    }
  });

  it('refuses publish --all with --slug, which published only the slugs named, before it reads a bucket', async () => {
    expect(await felt('publish', '--all', '--slug', 'alpha', '--yes', '--storage', 'local')).toBe(1);
    expect(printed.join('').trim().split('\n')).toEqual([
      'felt: --all and --slug ask for different things. give --all for every article of the dev bucket, or --slug for the ones named',
    ]);
  });

  it.each([
    {
      name: '--count',
      flags: ['--count', '3'],
      line: 'felt: --collect stores every submitted batch as it was asked, so --count would be ignored. run felt generate --collect without them (--attempts, --concurrency, --timeout, --storage and --json go with it)',
    },
    {
      name: '--locale, --count and --dry-run',
      flags: ['--locale', 'en_US', '--count', '3', '--dry-run'],
      line: 'felt: --collect stores every submitted batch as it was asked, so --locale, --count, --dry-run would be ignored. run felt generate --collect without them (--attempts, --concurrency, --timeout, --storage and --json go with it)',
    },
    {
      name: '--batch',
      flags: ['--batch', '--locale', 'en_US', '--count', '3'],
      line: 'felt: --batch and --collect ask for different things. give --batch (with --locale and --count) to submit articles, and --collect alone later to store what the provider wrote',
    },
  ])('refuses --collect with $name, which it ignored without a word, before it calls or writes anything', async ({ flags, line }) => {
    const calls = llm.log.length;
    expect(await felt('generate', '--collect', ...flags, '--storage', 'local')).toBe(1);
    expect(printed.join('').trim().split('\n')).toEqual([line]);
    expect(llm.log.length).toBe(calls);
    expect(existsSync(path.join(fixture.root, '.buckets'))).toBe(false);
  });

  it('generates offline from a local OpenAI-compatible server (Ollama, llama.cpp) with no OPENAI_API_KEY (issue 18, item 6)', async () => {
    delete process.env.OPENAI_API_KEY;
    llm.chats.length = 0;
    expect(await felt('generate', '--locale', 'en_US', '--count', '1', '--model', 'llama3.1:8b', '--storage', 'local')).toBe(0);
    expect(llm.chats.map((chat) => chat.body.model)).toEqual(['llama3.1:8b']);
    // Neither a key nor a local server: one line saying what to set.
    delete process.env.OPENAI_BASE_URL;
    printed.length = 0;
    expect(await felt('generate', '--locale', 'en_US', '--count', '1', '--storage', 'local')).toBe(1);
    expect(printed.join('')).toMatch(/felt: .*OPENAI_API_KEY is not set/);
    expect(printed.join('')).toMatch(/OPENAI_BASE_URL for a local OpenAI-compatible server/);
  });

  it('--dry-run --json prints the plan and prompts without calling the endpoint', async () => {
    const before = llm.log.length;
    expect(await felt('generate', '--locale', 'ru_RU', '--count', '2', '--dry-run', '--json')).toBe(0);
    const result = JSON.parse(printed.join('')) as { plan: unknown[]; prompts: unknown[] };
    expect(result.plan).toHaveLength(2);
    expect(llm.log.length).toBe(before);
  });

  it('batch then collect through the CLI', async () => {
    expect(await felt('generate', '--locale', 'en_US', '--count', '2', '--batch')).toBe(0);
    expect(await felt('generate', '--collect')).toBe(0);
    expect(printed.join('')).toMatch(/2 stored, 0 skipped, 0 failed/);
  });
});
