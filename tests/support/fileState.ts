/**
 * Run before every test file of the shared project (vitest.config.ts), whose files run one after another in a
 * worker they share: what a file changes of the process is put back when it ends, so that no file sees another's.
 * The environment (a test that sets OPENAI_BASE_URL to its own server, or FELT_DEBUG, would send the next file's
 * in-process commands there), the exit code the CLI's main() sets, the working folder, and spies on console and
 * the streams.
 */
import { afterAll, beforeAll, vi } from 'vitest';

let environment: NodeJS.ProcessEnv;
let folder: string;

beforeAll(() => {
  environment = { ...process.env };
  folder = process.cwd();
});

afterAll(() => {
  vi.restoreAllMocks();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  process.exitCode = undefined;
  if (process.cwd() !== folder) process.chdir(folder);
});
