/**
 * Runs the real `felt` command (node bin/felt.js) as an operator or a CI job
 * would, and checks what it prints. The compiled CLI in lib/ is brought up to
 * date once per test run, before any test starts (tests/globalSetup.ts calls
 * ensureCompiled), so `npx vitest run <file>` runs the code as it is now.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const FELT_BIN = path.join(REPO, 'bin', 'felt.js');
const BUNDLE = path.join(REPO, 'lib', 'felt.js');

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestSource(full));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, (await stat(full)).mtimeMs);
  }
  return newest;
}

export async function ensureCompiled(): Promise<void> {
  const lock = path.join(REPO, 'lib', '.security-compile.lock');
  const stale = async () =>
    !existsSync(BUNDLE) ||
    (await stat(BUNDLE)).mtimeMs < Math.max(...(await Promise.all(['cli', 'shared', 'site'].map((dir) => newestSource(path.join(REPO, dir))))));
  if (!(await stale())) return;
  await mkdir(path.dirname(lock), { recursive: true });
  for (let i = 0; i < 600; i++) {
    try {
      await mkdir(lock);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (await stale()) await run(process.execPath, [path.join(REPO, 'scripts', 'compile.mjs')], {});
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  onSpawn?: (child: ChildProcess) => void;
}

function run(command: string, args: string[], options: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPO, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** The environment a test run of felt gets: no inherited keys, no colours, plain lines. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', LANG: 'C.UTF-8' };
  return { ...env, ...extra };
}

export function runFelt(args: string[], options: RunOptions = {}): Promise<Run> {
  return run(process.execPath, [FELT_BIN, ...args], { ...options, env: options.env ?? cleanEnv() });
}

/** What a stack trace looks like in Node's output. */
export const STACK_TRACE = /^\s+at .+(\(.+:\d+:\d+\)|:\d+:\d+)$/m;
