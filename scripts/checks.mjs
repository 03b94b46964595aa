// `npm test`'s static checks, side by side: `npm run typecheck` and `npm run lint` each use one core (tsc, then
// ESLint and Prettier), and one after the other they took 45 s of a CI run (24.6 s and 20.4 s on this machine,
// 2026-11-29). Each one's output is printed whole once it ends, the first to end first, so the two never interleave.
// Exits 1 if either fails, after both have ended.
//
//   node scripts/checks.mjs            runs both
import { spawn } from 'node:child_process';

const SCRIPTS = ['typecheck', 'lint'];

function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ script, code: code ?? 1, signal, output }));
  });
}

let failed = false;
await Promise.all(
  SCRIPTS.map(async (script) => {
    const { code, signal, output } = await run(script);
    process.stdout.write(`> npm run ${script}\n${output}`);
    if (code !== 0) {
      failed = true;
      process.stdout.write(`npm run ${script} failed (${signal ?? `exit ${code}`})\n`);
    }
  }),
);
process.exit(failed ? 1 : 0);
