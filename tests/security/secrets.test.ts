/**
 * Issue 6, item 8: API keys and credentials appear in no output, log or
 * error, at any verbosity. The real CLI runs with an OpenAI key, a service
 * account file holding a real private key (GOOGLE_APPLICATION_CREDENTIALS),
 * and a proxy password inside OPENAI_BASE_URL, quietly, with FELT_DEBUG=1
 * (stack traces on unexpected failures) and with the SDKs' own debug logs
 * on, on success and on every error path, including servers that echo the
 * key back in their error messages.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fakeOpenAi.ts';
import { makeFixture, type Fixture } from '../support/fixtureSite.ts';
import { cleanEnv, runFelt, type Run } from '../support/cli.ts';
import { startFaultServer, type FaultServer } from './support/faultServer.ts';

const OPENAI_KEY = 'sk-proj-SECRETkey0123456789abcdefXYZ';
const PROXY_PASSWORD = 'hunter2-proxy-Pa55';
let privateKeyPem: string;
let credentialsFile: string;
let brokenCredentialsFile: string;
let llm: FakeOpenAi;
let faults: FaultServer;
let project: Fixture;
const runs: { name: string; run: Run }[] = [];

/** Every string that must never be printed: the key, the password, and each line of the private key. */
function secrets(): string[] {
  const keyLines = privateKeyPem.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'));
  return [OPENAI_KEY, PROXY_PASSWORD, 'felt0123456789abcdef0123456789abcdef0123', ...keyLines];
}

/** The quietest and the loudest: FELT_DEBUG=1 (stack traces) with every library's debug log on. */
const VERBOSITY: Record<string, NodeJS.ProcessEnv> = {
  quiet: {},
  'FELT_DEBUG=1 and SDK debug logs': { FELT_DEBUG: '1', OPENAI_LOG: 'debug', DEBUG: '*', NODE_DEBUG: 'http,fetch' },
};

beforeAll(async () => {
  llm = await startFakeOpenAi();
  faults = await startFaultServer();
  project = await makeFixture();
  await mkdir(path.join(project.contentDir, 'pages', 'en'), { recursive: true });
  for (const id of ['about-us', 'privacy-policy', 'terms'])
    await writeFile(path.join(project.contentDir, 'pages', 'en', `${id}.md`), `---\ntitle: ${id}\ndescription: The ${id} page.\n---\nText.\n`);

  privateKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'felt-secrets-'));
  const credentials = {
    type: 'service_account',
    project_id: 'felt-test',
    private_key_id: 'felt0123456789abcdef0123456789abcdef0123',
    private_key: privateKeyPem,
    client_email: 'felt@felt-test.iam.gserviceaccount.com',
    client_id: '1',
    token_uri: `${faults.url}/401/token`,
  };
  credentialsFile = path.join(dir, 'service-account.json');
  await writeFile(credentialsFile, JSON.stringify(credentials, null, 2));
  // Cut short: a JSON parser's error message quotes the text around the fault.
  brokenCredentialsFile = path.join(dir, 'broken.json');
  await writeFile(brokenCredentialsFile, JSON.stringify(credentials, null, 2).slice(0, 900));

  const base = { OPENAI_API_KEY: OPENAI_KEY, GOOGLE_APPLICATION_CREDENTIALS: credentialsFile };
  const gen = (baseUrl: string, extra: string[] = []) => [
    'generate',
    '--content',
    project.contentDir,
    '--storage',
    'local',
    '--locale',
    'en_US',
    '--count',
    '1',
    '--attempts',
    '1',
    '--timeout',
    '2',
    '--date',
    '2026-05-02',
    ...extra,
    '--run',
    `r${Math.random().toString(36).slice(2, 10)}`,
  ];
  const withProxyPassword = (url: string) => url.replace('http://', `http://felt-proxy:${PROXY_PASSWORD}@`);
  const cases: { name: string; args: string[]; env: NodeJS.ProcessEnv }[] = [
    { name: 'generate succeeds (--json)', args: [...gen(llm.url), '--json'], env: { ...base, OPENAI_BASE_URL: llm.url } },
    { name: 'generate --dry-run prints prompts', args: gen(llm.url, ['--dry-run']), env: { ...base, OPENAI_BASE_URL: llm.url } },
    { name: 'the LLM echoes the key in a 401', args: gen(`${faults.url}/401/v1`), env: { ...base, OPENAI_BASE_URL: `${faults.url}/401/v1` } },
    { name: 'the LLM echoes the key in a 500', args: gen(`${faults.url}/500/v1`), env: { ...base, OPENAI_BASE_URL: `${faults.url}/500/v1` } },
    { name: 'the LLM echoes the key in garbage', args: gen(`${faults.url}/garbage/v1`), env: { ...base, OPENAI_BASE_URL: `${faults.url}/garbage/v1` } },
    {
      name: 'a proxy password in OPENAI_BASE_URL',
      args: gen(`${faults.url}/401/v1`),
      env: { ...base, OPENAI_BASE_URL: withProxyPassword(`${faults.url}/401/v1`) },
    },
    {
      name: 'a proxy password in OPENAI_BASE_URL, server error',
      args: gen(`${faults.url}/500/v1`),
      env: { ...base, OPENAI_BASE_URL: withProxyPassword(`${faults.url}/500/v1`) },
    },
    { name: 'GCS with a service account, token refused', args: ['pull', '--content', project.contentDir, '--storage', 'gcs'], env: base },
    {
      name: 'GCS with a broken credentials file',
      args: ['pull', '--content', project.contentDir, '--storage', 'gcs'],
      env: { ...base, GOOGLE_APPLICATION_CREDENTIALS: brokenCredentialsFile },
    },
    {
      name: 'publish to GCS through an endpoint that echoes',
      args: ['publish', '--all', '--yes', '--content', project.contentDir, '--storage', 'gcs', '--storage-endpoint', `${faults.url}/401`],
      env: base,
    },
    {
      name: 'deploy with no dist',
      args: ['deploy', '--bucket', 'www-felt-test', '--content', project.contentDir, '--storage', 'gcs', '--dist', path.join(project.root, 'no-dist')],
      env: base,
    },
    {
      name: 'build with broken content',
      args: ['build', '--content', path.join(project.root, 'missing-content'), '--out', path.join(project.root, 'dist')],
      env: base,
    },
    { name: 'an unknown flag', args: ['generate', '--no-such-flag', OPENAI_KEY], env: base },
  ];
  const jobs = cases.flatMap((c) =>
    Object.entries(VERBOSITY).map(([level, extra]) => ({ name: `${c.name} (${level})`, args: c.args, env: cleanEnv({ ...c.env, ...extra }) })),
  );
  // A few at a time: each is a whole node process.
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) runs.push({ name: job.name, run: await runFelt(job.args, { env: job.env, timeoutMs: 90_000 }) });
    }),
  );
}, 170_000);

afterAll(async () => {
  await llm?.close();
  await faults?.close();
  await project?.cleanup();
});

describe('secrets in the environment', () => {
  it('were really sent where they belong (so their absence from output means something)', () => {
    expect(faults.authorizations.some((auth) => auth.includes(OPENAI_KEY))).toBe(true);
    expect(runs.length).toBeGreaterThanOrEqual(26);
  });

  it('never appear in stdout or stderr, on success or failure, at any verbosity', () => {
    const leaks: string[] = [];
    for (const { name, run } of runs) {
      const output = run.stdout + run.stderr;
      for (const secret of secrets()) if (output.includes(secret)) leaks.push(`${name}: prints ${secret.slice(0, 12)}…`);
      if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(output)) leaks.push(`${name}: prints a private key header`);
    }
    expect(leaks).toEqual([]);
  });

  it('failing runs still say what failed, with the secret masked', () => {
    const refused = runs.find((r) => r.name === 'the LLM echoes the key in a 401 (quiet)')!.run;
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/refused the API key \(HTTP 401\)/);
    const proxied = runs.find((r) => r.name === 'a proxy password in OPENAI_BASE_URL, server error (quiet)')!.run;
    expect(proxied.code).not.toBe(0);
    expect(proxied.stderr).toMatch(/felt-proxy:\*\*\*@127\.0\.0\.1|127\.0\.0\.1/);
  });
});
