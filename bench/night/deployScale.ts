/**
 * One locale's warm `felt deploy` at the scale of a built site, without the
 * cold night before it (`npm run bench:night -- --deploy-dist DIR`): a site
 * of 33,000 articles is about 150,000 files, and uploading them all one by one
 * to the loopback server takes longer than a session may have. The hosting
 * bucket is filled directly with what a deploy of DIR stores (the same
 * Content-Type, Cache-Control, gzip encoding and source MD5 that cli/deploy.ts
 * writes), then felt deploys DIR twice through the real @google-cloud/storage
 * client: the first learns the local MD5s (a runner whose deploy checksum
 * cache is gone), the second is the warm night's deploy of an unchanged
 * release. Each is measured as the night bench measures a step.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SOURCE_MD5 } from '../../cli/deploy.ts';
import { md5Base64 } from '../../cli/storage/checksum.ts';
import { ERROR_PAGES } from '../../shared/errorPages.ts';
import { FELT_ROOT as ROOT } from '../../shared/paths.ts';
import { isCompressible } from '../../site/serve/compression.ts';
import { cacheControlFor, contentTypeFor } from '../../site/serve/headers.ts';
import { startFakeGcs } from '../../tests/support/fakeGcs.ts';

const FELT = path.join(ROOT, 'bin', 'felt.js');
const BUCKET = 'felt-night-site';
/** Warm deploys after the first: each is the night's, and several show how much the machine's load moves them. */
const WARM_RUNS = 3;

function files(root: string, prefix = ''): { name: string; file: string }[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') && entry.name !== '.well-known') return [];
    const file = path.join(root, entry.name);
    if (entry.isDirectory()) return files(file, `${prefix}${entry.name}/`);
    return entry.isFile() ? [{ name: `${prefix}${entry.name}`, file }] : [];
  });
}

export async function runDeployScale(distDir: string, profileDir?: string): Promise<void> {
  const dist = path.resolve(distDir);
  const release = realpathSync(dist);
  const gcs = await startFakeGcs();
  const work = path.join(os.tmpdir(), `felt-bench-deploy-${process.pid}`);
  try {
    const site = files(release);
    console.log(`${site.length.toLocaleString('en')} files in ${release}: filling ${BUCKET} as a deploy would have…`);
    gcs.buckets.set(BUCKET, new Map());
    for (const { name, file } of site) {
      const raw = readFileSync(file);
      const contentType = contentTypeFor(name);
      // Level 1: the deploy compares the source MD5 kept beside a gzip-encoded object, never the compressed bytes.
      const gzip = isCompressible(contentType, statSync(file).size);
      gcs.put(BUCKET, name, gzip ? gzipSync(raw, { level: 1 }) : raw, {
        contentType,
        cacheControl: cacheControlFor(name),
        metadata: gzip ? { [SOURCE_MD5]: md5Base64(raw) } : {},
      });
      if (gzip) gcs.buckets.get(BUCKET)!.get(name)!.contentEncoding = 'gzip';
    }
    gcs.websites.set(BUCKET, { mainPageSuffix: 'index.html', notFoundPage: ERROR_PAGES.notFound.file });
    await mkdir(path.join(work, 'content'), { recursive: true });
    for (const file of ['site.json', 'categories.json', 'authors.json', 'ads.json'])
      await cp(path.join(ROOT, 'content', file), path.join(work, 'content', file));
    const env = { ...process.env, STORAGE_EMULATOR_HOST: gcs.url, GOOGLE_CLOUD_PROJECT: 'felt-bench', NODE_ENV: 'production' };
    console.log('\n| run | wall s | CPU s (user + sys) | requests: list / GET body / PUT / DELETE | peak MB |\n|---|---:|---:|---|---:|');
    for (const run of ['deploy, no checksum cache', ...Array.from({ length: WARM_RUNS }, () => 'deploy, warm (the night’s)')]) {
      gcs.resetLog();
      const profile = profileDir && path.join(path.resolve(profileDir), run.startsWith('deploy, warm') ? 'warm' : 'first');
      const { seconds, peakMB, cpu } = await timed(['deploy', '--dist', dist, '--bucket', BUCKET, '--delete', '--storage', 'gcs'], work, env, profile);
      const put = gcs.count('object.upload') + gcs.count('object.upload.start');
      console.log(
        `| ${run} | ${seconds.toFixed(1)} | ${cpu} | ${gcs.count('object.list')} / ${gcs.count('object.download')} / ${put} / ${gcs.count('object.delete')} | ${Math.round(peakMB)} |`,
      );
    }
  } finally {
    await gcs.close();
    await rm(work, { recursive: true, force: true });
  }
}

function timed(args: string[], cwd: string, env: NodeJS.ProcessEnv, profileDir?: string): Promise<{ seconds: number; peakMB: number; cpu: string }> {
  const node = profileDir ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [process.execPath];
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'BENCH %e %M %U %S', ...node, FELT, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      const m = /BENCH ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
      if (!m || code !== 0) return reject(new Error(`felt ${args.join(' ')} failed (${code}):\n${stderr.slice(-2000)}`));
      resolve({ seconds: Number(m[1]), peakMB: Number(m[2]) / 1024, cpu: `${m[3]} + ${m[4]}` });
    });
  });
}
