/**
 * Where felt's own files are, wherever it is run from: the repository root
 * holds locales/, prompts/, site/ (the client sources) and content/.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside } from './insideFolder.ts';

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('felt: cannot find its own package.json');
    dir = parent;
  }
  return dir;
}

export const FELT_ROOT = findRoot();
export const LOCALES_DIR = path.join(FELT_ROOT, 'locales');
export const PROMPTS_DIR = path.join(FELT_ROOT, 'prompts');
export const CLIENT_DIR = path.join(FELT_ROOT, 'site', 'client');
export const STYLES_DIR = path.join(FELT_ROOT, 'site', 'styles');
export const STATIC_DIR = path.join(FELT_ROOT, 'site', 'static');

/** A path as messages show it: relative to the working folder when inside it, else as given. */
export function displayPath(file: string): string {
  return isInside(path.resolve(file), process.cwd()) ? path.relative(process.cwd(), file) : file;
}

/** The name of felt's cache folder (cacheFolderOf). */
export const CACHE_FOLDER = '.felt-cache';

/** felt's caches for a content folder: `.felt-cache/` beside it (parsed articles, images, pull and deploy checksums). */
export function cacheFolderOf(contentDir: string): string {
  return path.join(path.dirname(path.resolve(contentDir)), CACHE_FOLDER);
}

/** Where a content locale's articles are: `articles/<locale>/` in the content folder. */
export function articleFolder(contentDir: string, locale: string): string {
  return path.join(contentDir, 'articles', locale);
}

/** An article's file in the content folder. */
export function articleFile(contentDir: string, locale: string, slug: string): string {
  return path.join(contentDir, 'articles', locale, `${slug}.md`);
}

/**
 * A file named `name` in the folder of the module at `moduleUrl` (its import.meta.url) or in that folder's parent:
 * a compiled file that lib/ holds beside the CLI's bundle, whose module esbuild puts in lib/felt.js or in a chunk in
 * lib/chunks/, as the import graph falls. Undefined when neither folder holds it (the TypeScript sources, in tests).
 */
export function besideModule(moduleUrl: string, name: string): string | undefined {
  for (const candidate of [`./${name}`, `../${name}`]) {
    const file = fileURLToPath(new URL(candidate, moduleUrl));
    if (existsSync(file)) return file;
  }
  return undefined;
}
