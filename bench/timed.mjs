// One command under /usr/bin/time, for the benches that time felt's builds (run.mjs, ab.mjs, killed.mjs).
import { spawn, spawnSync } from 'node:child_process';

/**
 * Runs `command` under /usr/bin/time and resolves with how it ended and what it cost: wall, user and system seconds,
 * peak resident memory (the whole process, every thread), minor page faults (the pages it touched first, see
 * machine.mjs), its stdout and stderr (time's own line taken out).
 *
 * What was written before (the corpus, the build before) goes to the disk first, untimed (`sync`): otherwise its
 * write-back runs during this command and is charged to it. At 100,000 articles felt, built first after the corpus's
 * 300,000 files were written, took 78.6 s in a run where the same build took 59.8-62.6 s minutes later (2026-11-25).
 */
export function timed(command, args, { cwd, env = process.env } = {}) {
  spawnSync('sync');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIMED %e %U %S %M %R', command, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = /^TIMED ([\d.]+) ([\d.]+) ([\d.]+) (\d+) (\d+)$/m.exec(stderr);
      const [wall, user, system, peakKB, minorFaults] = line ? line.slice(1).map(Number) : [NaN, NaN, NaN, NaN, NaN];
      resolve({
        code,
        // time exits with its command's status, or says the signal that ended it.
        killed: /terminated by signal 9/.test(stderr),
        stdout,
        stderr: stderr.replace(/^(Command terminated by signal \d+\n)?TIMED .*\n?/m, ''),
        wall,
        user,
        system,
        peakMB: peakKB / 1024,
        minorFaults,
      });
    });
  });
}

/** The middle value (the upper one of an even count): the benches' summary of repeated runs. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
