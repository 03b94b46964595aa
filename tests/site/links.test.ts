import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../site/build/build.ts';
import { BUNDLED_CONTENT, tempDir } from './helpers.ts';

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(full)));
    else if (entry.name.endsWith('.html')) out.push(full);
  }
  return out;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** What felt serve would answer for a site path. */
async function resolves(root: string, sitePath: string): Promise<boolean> {
  const clean = decodeURIComponent(sitePath.split('#')[0]!.split('?')[0]!);
  if (clean === '/') return exists(path.join(root, 'index.html'));
  const target = path.join(root, clean);
  return (await exists(target)) || exists(path.join(target, 'index.html'));
}

describe('links in the bundled site', () => {
  let out: string;
  beforeAll(async () => {
    out = path.join(await tempDir(), 'dist');
    await buildSite({ contentDir: BUNDLED_CONTENT, outDir: out });
  });

  it('resolves every internal link and asset reference to a file', async () => {
    const files = await htmlFiles(out);
    expect(files.length).toBeGreaterThan(150);
    const broken: string[] = [];
    const checked = new Set<string>();
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      for (const match of html.matchAll(/\s(?:href|src|data-sq)="([^"]+)"/g)) {
        const ref = match[1]!.replace(/&amp;/g, '&');
        if (!ref.startsWith('/') || ref.startsWith('//')) continue;
        if (checked.has(ref)) continue;
        checked.add(ref);
        if (!(await resolves(out, ref))) broken.push(`${path.relative(out, file)} → ${ref}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked.size).toBeGreaterThan(100);
  });

  it('links every in-page table-of-contents entry to a heading of the page', async () => {
    for (const file of (await htmlFiles(out)).filter((f) => f.includes(`${path.sep}articles${path.sep}`))) {
      const html = await readFile(file, 'utf8');
      for (const match of html.matchAll(/href="#([^"]+)"/g)) {
        if (match[1] === 'main') continue;
        expect(html, `${file} #${match[1]}`).toContain(`id="${match[1]}"`);
      }
    }
  });
});
