/**
 * shared/atomicWrite.ts, felt's one way to replace a file: many writers of
 * one file, in other processes or in this one, never collide and never let a
 * reader see a torn file; a failed write leaves no temporary file behind.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMP_MARK, writeFileAtomic, writeFileAtomicSync } from '../../shared/atomicWrite.ts';
import { tempDir } from '../site/helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SIZE = 512 * 1024;
const WRITERS = 4;
const ROUNDS = 40;

/** A process that writes the file ROUNDS times, all of it one letter; it exits 1 on any error. */
const WRITER = `
import { writeFileAtomic, writeFileAtomicSync } from './shared/atomicWrite.ts';
const [file, letter, mode] = process.argv.slice(2);
const data = Buffer.alloc(${SIZE}, letter);
for (let i = 0; i < ${ROUNDS}; i++) {
  if (mode === 'sync') writeFileAtomicSync(file, data);
  else await writeFileAtomic(file, data);
}
`;

let writerScript: string;

beforeAll(async () => {
  writerScript = path.join(await tempDir('felt-atomic-'), 'writer.mjs');
  await build({
    stdin: { contents: WRITER, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: writerScript,
    logLevel: 'silent',
  });
});

function runWriter(file: string, letter: string, mode: 'sync' | 'async'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [writerScript, file, letter, mode], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Whether the file is one writer's whole content: full length, one letter throughout. */
function whole(data: Buffer): boolean {
  return data.length === SIZE && data.every((byte) => byte === data[0]);
}

const leftovers = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith(TEMP_MARK) || name.endsWith('.tmp'));

describe.each(['sync', 'async'] as const)('writeFileAtomic%s', (mode) => {
  it(`lets ${WRITERS} processes write one file at once: none fails, no read is torn, nothing is left behind`, async () => {
    const dir = await tempDir('felt-atomic-');
    const file = path.join(dir, 'journal.json');
    await writeFile(file, Buffer.alloc(SIZE, 'z'));
    let running = true;
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, i) => runWriter(file, String.fromCharCode(97 + i), mode))).finally(() => (running = false));
    const torn: number[] = [];
    let reads = 0;
    while (running) {
      const data = await readFile(file);
      reads++;
      if (!whole(data)) torn.push(data.length);
    }
    const results = await writers;
    // The error line of a writer that failed (ENOENT when another writer renamed its temporary file away).
    expect(results.map((r) => /^\w*Error.*$/m.exec(r.stderr)?.[0] ?? r.stderr)).toEqual(Array(WRITERS).fill(''));
    expect(results.map((r) => r.code)).toEqual(Array(WRITERS).fill(0));
    expect(reads).toBeGreaterThan(0);
    expect(torn).toEqual([]);
    expect(whole(await readFile(file))).toBe(true);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('leaves no temporary file when the write fails', async () => {
    const dir = await tempDir('felt-atomic-');
    // A folder where the file should go: the data is written, the rename fails.
    const target = path.join(dir, 'article.md');
    await mkdir(path.join(target, 'inside'), { recursive: true });
    const write = async () => (mode === 'sync' ? writeFileAtomicSync(target, 'text') : writeFileAtomic(target, 'text'));
    await expect(write()).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['article.md']);
  });
});

describe('writeFileAtomic in one process', () => {
  it('runs concurrent writes of one file without a collision', async () => {
    const dir = await tempDir('felt-atomic-');
    const file = path.join(dir, 'cache.json');
    const contents = Array.from({ length: 20 }, (_, i) => Buffer.alloc(64 * 1024, String.fromCharCode(97 + i)));
    await Promise.all(contents.map((data) => writeFileAtomic(file, data)));
    const final = await readFile(file);
    expect(contents.some((data) => data.equals(final))).toBe(true);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('removes the temporary file when the step before the rename fails', async () => {
    const dir = await tempDir('felt-atomic-');
    const file = path.join(dir, 'object.bin');
    await expect(
      writeFileAtomic(file, 'data', async () => {
        throw new Error('sidecar failed');
      }),
    ).rejects.toThrow('sidecar failed');
    expect(await readdir(dir)).toEqual([]);
  });
});
