/**
 * Incremental builds. Each page's cache key is a digest of everything that
 * makes its files: its spec and the build-wide template key (felt's code, UI
 * strings, settings, categories, shell, asset names). Article pages also
 * record the digest of their inputs (articlePages.ts): when that is unchanged,
 * so are the spec and its key, and the spec is not even made. A rebuild renders only
 * the pages whose key changed and rewrites only the other files whose bytes
 * changed (see commit.ts); the manifest that remembers the keys lives in the
 * output folder, so it always describes the files next to it.
 *
 * On disk the manifest is compact (serializeManifest): at 100,000 articles
 * a JSON object of 400,000 path → key members took a third of a second to
 * parse, where two joined strings per map take a few milliseconds to split.
 */
import crypto, { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
export { feltCodeVersion } from './codeVersion.ts';

export const MANIFEST_FILE = '.felt/manifest.json';
const MANIFEST_VERSION = 4;

export interface BuildManifest {
  version: number;
  templateKey: string;
  /** page path → cache key. Maps, not objects: at 100,000 articles a Map of 120,000 names is made three times faster. */
  pages: Map<string, string>;
  /** page path → digest of what the page is made from, for pages that know it before they are made (article and listing pages). */
  inputs: Map<string, string>;
  /** Files that are not pages (assets, feeds, sitemaps, search index, static files, covers) → digest of their bytes or version. */
  others: Map<string, string>;
  /**
   * Set by an incremental build: the release it was made beside (its folder's name) and the pages and other files
   * whose key differs from that release's (added, changed or removed). The next build brings that release, its
   * spare, up to date from these lists instead of reading the spare's manifest and comparing every entry (commit.ts).
   */
  delta?: { from: string; pages: string[]; others: string[] };
}

// crypto.hash() (Node 20.12+) hashes in one call, several times cheaper than createHash() for the
// thousands of small inputs a build digests; older Node 20 releases fall back to createHash().
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'base64url') => string }).hash;

export function digest(data: string | Uint8Array): string {
  const full = oneShot ? oneShot('sha256', data, 'base64url') : createHash('sha256').update(data).digest('base64url');
  return full.slice(0, 22);
}

/** A path never holds NUL: it separates the joined names and keys. */
const SEPARATOR = '\0';

/** The manifest as written: each map as its names and its values, each joined in one string. */
interface StoredManifest {
  version: number;
  templateKey: string;
  pages: [names: string, keys: string];
  inputs: [names: string, keys: string];
  others: [names: string, keys: string];
  delta?: BuildManifest['delta'];
}

function joined(map: ReadonlyMap<string, string>): [string, string] {
  return [[...map.keys()].join(SEPARATOR), [...map.values()].join(SEPARATOR)];
}

function unjoined([names, keys]: [string, string]): Map<string, string> {
  const map = new Map<string, string>();
  if (names === '') return map;
  const nameList = names.split(SEPARATOR);
  const keyList = keys.split(SEPARATOR);
  for (let i = 0; i < nameList.length; i++) map.set(nameList[i]!, keyList[i]!);
  return map;
}

export function serializeManifest(manifest: BuildManifest): string {
  const stored: StoredManifest = {
    version: manifest.version,
    templateKey: manifest.templateKey,
    pages: joined(manifest.pages),
    inputs: joined(manifest.inputs),
    others: joined(manifest.others),
    ...(manifest.delta ? { delta: manifest.delta } : {}),
  };
  return JSON.stringify(stored);
}

export function readManifest(outDir: string): BuildManifest | undefined {
  try {
    const stored = JSON.parse(readFileSync(path.join(outDir, MANIFEST_FILE), 'utf8')) as StoredManifest;
    if (stored.version !== MANIFEST_VERSION) return undefined;
    return {
      version: stored.version,
      templateKey: stored.templateKey,
      pages: unjoined(stored.pages),
      inputs: unjoined(stored.inputs),
      others: unjoined(stored.others),
      delta: stored.delta,
    };
  } catch {
    return undefined;
  }
}

export function newManifest(templateKey: string): BuildManifest {
  return { version: MANIFEST_VERSION, templateKey, pages: new Map(), inputs: new Map(), others: new Map() };
}

/**
 * A manifest made beside the one it reuses, noting as entries are set which differ from it: the delta the next
 * build needs (BuildManifest.delta) comes from these notes, not from comparing 220,000 entries afterwards.
 */
export class ManifestMaker {
  readonly manifest: BuildManifest;
  private readonly previous: Pick<BuildManifest, 'pages' | 'others'>;
  /** Names set to a value the previous manifest does not have; a name may be noted more than once. */
  private readonly noted = { pages: [] as string[], others: [] as string[] };
  /** How many of the previous manifest's names this one has set: all of them means none is gone. */
  private readonly kept = { pages: 0, others: 0 };
  private readonly tracking: boolean;

  constructor(templateKey: string, previous?: BuildManifest) {
    this.manifest = newManifest(templateKey);
    this.tracking = previous !== undefined;
    this.previous = previous ?? { pages: new Map(), others: new Map() };
  }

  setPage(path: string, key: string): void {
    this.set('pages', path, key);
  }

  setOther(file: string, hash: string): void {
    this.set('others', file, hash);
  }

  private set(map: 'pages' | 'others', name: string, value: string): void {
    const entries = this.manifest[map];
    const before = this.previous[map].get(name);
    if (before !== undefined && !entries.has(name)) this.kept[map]++;
    entries.set(name, value);
    // A cold build (nothing reused) asks no delta: nothing is noted.
    if (before !== value && this.tracking) this.noted[map].push(name);
  }

  /** The pages and other files whose key differs from the previous manifest's, either way (added, changed or gone). */
  delta(): { pages: string[]; others: string[] } {
    return { pages: this.differing('pages'), others: this.differing('others') };
  }

  private differing(map: 'pages' | 'others'): string[] {
    const now = this.manifest[map];
    const before = this.previous[map];
    // A name set twice may have ended where it began.
    const names = [...new Set(this.noted[map])].filter((name) => before.get(name) !== now.get(name));
    if (this.kept[map] !== before.size) for (const name of before.keys()) if (!now.has(name)) names.push(name);
    return names;
  }
}
