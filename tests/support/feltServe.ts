import type { ChildProcess } from 'node:child_process';

/** The address a spawned `felt serve` prints once it listens ("… at http://127.0.0.1:PORT/ …"); rejects if it exits first. */
export function servedAt(felt: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    felt.stdout!.setEncoding('utf8').on('data', (line: string) => {
      const found = / at (http:\/\/\S+?)\/ /.exec(line);
      if (found) resolve(found[1]!);
    });
    felt.on('exit', (code) => reject(new Error(`felt serve exited with ${code}`)));
  });
}
