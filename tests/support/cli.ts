/**
 * Runs the real `felt` command (node bin/felt.js) as an operator or a CI job
 * would, and checks what it prints. The compiled CLI in lib/ is brought up to
 * date once per test run, before any test starts (tests/globalSetup.ts calls
 * ensureCompiled), so `npx vitest run <file>` runs the code as it is now.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const FELT_BIN = path.join(REPO, 'bin', 'felt.js');
const BUNDLE = path.join(REPO, 'lib', 'felt.js');

/** The newest modification time of `entry`: a file's own, a folder's newest file's at any depth. */
async function newestChange(entry: string): Promise<number> {
  const info = await stat(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const name of await readdir(entry)) newest = Math.max(newest, await newestChange(path.join(entry, name)));
  return newest;
}

/**
 * What lib/ is compiled from: every file of the sources (TypeScript, and what it imports or the compile copies
 * beside the bundle, such as site/pictures/cardEncoder.cjs) and the compile script with its helper, whose plugins
 * decide what the bundle holds.
 */
const COMPILED_FROM = ['cli', 'shared', 'site', 'scripts/compile.mjs', 'scripts/markdownItFields.mjs'].map((entry) => path.join(REPO, entry));

export async function ensureCompiled(): Promise<void> {
  const lock = path.join(REPO, 'lib', '.security-compile.lock');
  const stale = async () => !existsSync(BUNDLE) || (await stat(BUNDLE)).mtimeMs < Math.max(...(await Promise.all(COMPILED_FROM.map(newestChange))));
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

/**
 * `felt <args>` run until it stops itself (SIGSTOP) at a point of site/build/crashPoints.ts (FELT_STOP_AT): then
 * `whileStopped` runs (a fault made, a signal sent), and the run goes on (SIGCONT). Resolves when it ends.
 */
export async function runFeltStoppedAt(
  args: string[],
  point: string,
  whileStopped: (child: ChildProcess) => Promise<void> | void,
  options: RunOptions = {},
): Promise<Run> {
  let child: ChildProcess | undefined;
  const running = runFelt(args, {
    ...options,
    env: { ...(options.env ?? cleanEnv()), FELT_STOP_AT: point },
    onSpawn: (spawned) => (child = spawned),
  });
  let exited = false;
  void running.then(() => (exited = true));
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (exited) throw new Error(`felt ${args[0]} never reached ${point}: ${(await running).stderr}`);
    if (readFileSync(`/proc/${child!.pid}/stat`, 'utf8').replace(/^.*\) /, '')[0] === 'T') break;
  }
  try {
    await whileStopped(child!);
  } finally {
    child!.kill('SIGCONT');
  }
  return running;
}

/** What a stack trace looks like in Node's output. */
export const STACK_TRACE = /^\s+at .+(\(.+:\d+:\d+\)|:\d+:\d+)$/m;
