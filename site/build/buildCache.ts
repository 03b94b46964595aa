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
 * parse, where one string split at its separators takes a few milliseconds.
 */
import path from 'node:path';
import { readStateText } from '../../shared/stateText.ts';
export { feltCodeVersion } from './codeVersion.ts';

// Named as when it was JSON: a release is whole when it has this file (output.ts), releases made by an older felt included.
export const MANIFEST_FILE = '.felt/manifest.json';
const MANIFEST_VERSION = 7;

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
   * Every article the build read, per content locale, in the locale's order (newest first): its slug and its token
   * (the start of its file's digest, and its provider picture's digest if it has one). The next build walks its own
   * articles along these to learn whether articles were only added; it then looks at the pages those can change, not
   * at every page (additions.ts).
   */
  articles: Map<string, RecordedArticles>;
  /** What besides its articles every page with inputs reads (authors, ads, locale), and whether it was a preview. */
  planKey: string;
  /**
   * Set by an incremental build: the release it was made beside (its folder's name) and the pages and other files
   * whose key differs from that release's (added, changed or removed). The next build brings that release, its
   * spare, up to date from these lists instead of reading the spare's manifest and comparing every entry (commit.ts).
   */
  delta?: { from: string; pages: string[]; others: string[] };
}

/**
 * One content locale's recorded articles, kept as the text they are written as: each slug and each token followed by
 * FIELD_END. A rebuild reads them where they are and splices the new articles in (additions.ts): at 100,000 articles
 * a map of them was 200,000 strings made, and copied by the collector, for every rebuild.
 */
export interface RecordedArticles {
  count: number;
  slugs: string;
  tokens: string;
}

/** What ends each recorded slug and token. A path never holds NUL: it separates the names and keys in the file. */
export const FIELD_END = '\0';

/**
 * The key a cold build writes down for a page with inputs, whose key it did not work out: no digest is empty, so
 * the next build that makes the page from other inputs finds its key changed and renders it (renderPages).
 */
export const UNKEYED = '';

const SEPARATOR = FIELD_END;
/** The file's last bytes: a file cut short anywhere (a full disk) lacks them, even within its last field. */
const END = `${SEPARATOR}end`;

/** The manifest's first line: all but its maps, which follow as counted runs of NUL-separated fields. */
interface ManifestHead {
  version: number;
  templateKey: string;
  /** How many pages and other files the runs hold. */
  pages: number;
  others: number;
  /** How long the runs of pages and other files are (characters); the recorded articles follow them. */
  fields: number;
  /** Per content locale: how many articles it recorded, and how long their slugs' and tokens' texts are. */
  articles: Record<string, { count: number; slugs: number; tokens: number }>;
  planKey: string;
  delta?: BuildManifest['delta'];
}

/**
 * The manifest as written: a JSON line (ManifestHead), then, separated by NUL, the pages' paths, their keys, their
 * inputs in the same order (empty where a page has none), the other files' names and their digests; then per content
 * locale its recorded articles' slugs and tokens, as kept (RecordedArticles); then END. No JSON for the 760,000 fields
 * of a 100,000-article site: one split reads them, where JSON had to escape every separator, and the inputs share
 * the pages' paths.
 */
export function serializeManifest(manifest: BuildManifest, columns?: PageColumnTexts): string {
  const recorded = [...manifest.articles];
  // Pushed one by one: spread into push() passes each field as an argument, past the stack's limit at 100,000.
  const fields: string[] = [];
  for (const page of manifest.pages.keys()) fields.push(page);
  for (const key of manifest.pages.values()) fields.push(key);
  for (const page of manifest.pages.keys()) fields.push(manifest.inputs.get(page) ?? '');
  const pageCount = manifest.pages.size + (columns?.count ?? 0);
  // A cold build's pages come as their three runs, already joined (PageColumns); the maps are empty then.
  const pageRuns = columns?.count ? [columns.paths, columns.keys, columns.inputs] : [];
  for (const file of manifest.others.keys()) fields.push(file);
  for (const value of manifest.others.values()) fields.push(value);
  const fieldText = [...pageRuns, ...(fields.length ? [fields.join(SEPARATOR)] : [])].join(SEPARATOR);
  const head: ManifestHead = {
    version: manifest.version,
    templateKey: manifest.templateKey,
    pages: pageCount,
    others: manifest.others.size,
    fields: fieldText.length,
    articles: Object.fromEntries(recorded.map(([locale, { count, slugs, tokens }]) => [locale, { count, slugs: slugs.length, tokens: tokens.length }])),
    planKey: manifest.planKey,
    ...(manifest.delta ? { delta: manifest.delta } : {}),
  };
  return `${JSON.stringify(head)}\n${fieldText}${recorded.map(([, { slugs, tokens }]) => slugs + tokens).join('')}${END}`;
}

/** A cold build's page rows as the manifest file writes them: the paths, the keys and the inputs, each run joined by NUL. */
export interface PageColumnTexts {
  count: number;
  paths: string;
  keys: string;
  inputs: string;
}

/** Rows joined into one text at a time: a block's strings go to the collector as one. */
const COLUMN_BLOCK = 4096;

/**
 * A cold build's page rows, kept as the manifest file writes them. A cold build never looks a page up, so it needs
 * no maps: the pages and inputs maps held 302 B a page at 50,000 articles (a heap snapshot, README "Memory as the site
 * grows"), three short texts a page joined into runs hold about a third of that.
 */
class PageColumns {
  count = 0;
  private readonly joined = { paths: [] as string[], keys: [] as string[], inputs: [] as string[] };
  private block = { paths: [] as string[], keys: [] as string[], inputs: [] as string[] };

  add(path: string, key: string, inputs: string | undefined): void {
    this.block.paths.push(path);
    this.block.keys.push(key);
    this.block.inputs.push(inputs ?? '');
    this.count++;
    if (this.block.paths.length === COLUMN_BLOCK) this.seal();
  }

  texts(): PageColumnTexts {
    this.seal();
    const { paths, keys, inputs } = this.joined;
    return { count: this.count, paths: paths.join(SEPARATOR), keys: keys.join(SEPARATOR), inputs: inputs.join(SEPARATOR) };
  }

  private seal(): void {
    if (this.block.paths.length === 0) return;
    const { block, joined } = this;
    joined.paths.push(block.paths.join(SEPARATOR));
    joined.keys.push(block.keys.join(SEPARATOR));
    joined.inputs.push(block.inputs.join(SEPARATOR));
    this.block = { paths: [], keys: [], inputs: [] };
  }
}

export function readManifest(outDir: string): BuildManifest | undefined {
  try {
    const whole = readStateText(path.join(outDir, MANIFEST_FILE));
    if (!whole.endsWith(END)) return undefined;
    const text = whole.slice(0, -END.length);
    const lineEnd = text.indexOf('\n');
    const head = JSON.parse(text.slice(0, lineEnd)) as ManifestHead;
    if (head.version !== MANIFEST_VERSION) return undefined;
    const pageCount = head.pages;
    const fieldsEnd = lineEnd + 1 + head.fields;
    const fields = pageCount + head.others === 0 ? [] : text.slice(lineEnd + 1, fieldsEnd).split(SEPARATOR);
    // A manifest cut short or hand-edited is no manifest: the build starts over.
    if (fields.length !== pageCount * 3 + head.others * 2) return undefined;
    const pages = new Map<string, string>();
    const inputs = new Map<string, string>();
    for (let i = 0; i < pageCount; i++) {
      const page = fields[i]!;
      pages.set(page, fields[pageCount + i]!);
      const input = fields[2 * pageCount + i]!;
      if (input !== '') inputs.set(page, input);
    }
    const others = new Map<string, string>();
    const from = pageCount * 3;
    for (let i = 0; i < head.others; i++) others.set(fields[from + i]!, fields[from + head.others + i]!);
    // The recorded articles stay the text they are: sliced, not split (RecordedArticles).
    const articles = new Map<string, RecordedArticles>();
    let at = fieldsEnd;
    for (const [locale, lengths] of Object.entries(head.articles)) {
      const slugs = text.slice(at, (at += lengths.slugs));
      const tokens = text.slice(at, (at += lengths.tokens));
      const whole = (run: string) => run === '' || run.endsWith(FIELD_END);
      if (!whole(slugs) || !whole(tokens) || (lengths.count === 0) !== (slugs === '')) return undefined;
      articles.set(locale, { count: lengths.count, slugs, tokens });
    }
    if (at !== text.length) return undefined;
    return { version: head.version, templateKey: head.templateKey, pages, inputs, others, articles, planKey: head.planKey, delta: head.delta };
  } catch {
    return undefined;
  }
}

export function newManifest(templateKey: string): BuildManifest {
  return { version: MANIFEST_VERSION, templateKey, pages: new Map(), inputs: new Map(), others: new Map(), articles: new Map(), planKey: '' };
}

/**
 * A manifest made beside the one it reuses, noting as entries are set which differ from it: the delta the next
 * build needs (BuildManifest.delta) comes from these notes, not from comparing 220,000 entries afterwards.
 *
 * Pages are unique in a build (the route check refuses two of one path), so a rebuild takes over the previous
 * manifest's page maps and changes them in place: a page made from unchanged inputs costs one lookup
 * (keptPage), where filling new maps cost five hash operations a page, 600,000 at 100,000 articles. Other files
 * may be set twice in a build, so they go into a new map as before. The previous manifest is the maker's after
 * this: its page maps are this manifest's.
 */
export class ManifestMaker {
  readonly manifest: BuildManifest;
  private readonly previousOthers: ReadonlyMap<string, string>;
  /** Names set to a value the previous manifest does not have; another file's name may be noted more than once. */
  private readonly noted = { pages: [] as string[], others: [] as string[] };
  /** How many of the previous manifest's names this one has set: all of them means none is gone. */
  private readonly kept = { pages: 0, others: 0 };
  /** How many pages the previous manifest had, and the paths set in this build (to find the pages gone). */
  private readonly previousPages: number;
  private readonly seen: string[] = [];
  private finished = false;
  private keepsUnseen = false;
  /** A cold build's pages (nothing to compare with): kept as the file writes them, not in the manifest's maps. */
  private readonly columns?: PageColumns;

  /** A cold build's: no previous manifest, so no page's key is compared with anything in this build. */
  get cold(): boolean {
    return this.columns !== undefined;
  }

  /** Whether this manifest is made beside a previous one, noting what differs from it: any build but a cold one. */
  private get tracking(): boolean {
    return !this.cold;
  }

  constructor(templateKey: string, previous?: BuildManifest) {
    this.manifest = newManifest(templateKey);
    this.previousOthers = previous?.others ?? new Map();
    this.previousPages = previous?.pages.size ?? 0;
    if (previous) {
      this.manifest.pages = previous.pages;
      this.manifest.inputs = previous.inputs;
    } else {
      this.columns = new PageColumns();
    }
  }

  /** The manifest as written (serializeManifest), a cold build's pages included. */
  serialize(): string {
    this.finishPages();
    return serializeManifest(this.manifest, this.columns?.texts());
  }

  /**
   * Whether the page was last made from these same inputs: it is then kept as it was, key and files (nothing to
   * make). The inputs map holds only pages the pages map has (readManifest fills both from one list of paths, and
   * setPage and finishPages change both), so one lookup answers.
   */
  keptPage(path: string, inputs: string): boolean {
    if (!this.tracking || this.manifest.inputs.get(path) !== inputs) return false;
    this.kept.pages++;
    this.seen.push(path);
    return true;
  }

  /**
   * Sets a page's key and inputs (none: the page has none); returns the key it had before, if any. A cold build's
   * pages are new and set once each (the route check refuses two of one path): they are only written down.
   */
  setPage(path: string, key: string, inputs?: string): string | undefined {
    if (this.columns) {
      this.columns.add(path, key, inputs);
      return undefined;
    }
    const { pages } = this.manifest;
    const before = pages.get(path);
    pages.set(path, key);
    if (inputs !== undefined) this.manifest.inputs.set(path, inputs);
    else this.manifest.inputs.delete(path);
    if (before !== undefined) this.kept.pages++;
    if (before !== key) this.noted.pages.push(path);
    this.seen.push(path);
    return before;
  }

  /** Sets a file's version; true when the previous manifest has the same (the file is unchanged). */
  setOther(file: string, hash: string): boolean {
    const entries = this.manifest.others;
    const before = this.previousOthers.get(file);
    const size = entries.size;
    entries.set(file, hash);
    // A name new to this manifest (not set before in this build) that the previous one has.
    if (before !== undefined && entries.size > size) this.kept.others++;
    if (before === hash) return true;
    // A cold build (nothing reused) asks no delta: nothing is noted.
    if (this.tracking) this.noted.others.push(file);
    return false;
  }

  /**
   * Sets every file of the previous manifest that `kept` names to the version it had: files this build knows are
   * unchanged without looking at each (a rebuild after additions keeps its 100,000 pictures so, additions.ts).
   */
  keepOthers(kept: (file: string) => boolean): void {
    const entries = this.manifest.others;
    for (const [file, hash] of this.previousOthers) {
      if (!kept(file)) continue;
      const size = entries.size;
      entries.set(file, hash);
      if (entries.size > size) this.kept.others++;
    }
  }

  /**
   * Ends the pages: the previous manifest's pages this build did not set are dropped (and noted). Call it once,
   * after the last setPage and before the manifest is written or its delta read.
   */
  finishPages(): void {
    if (this.finished) return;
    this.finished = true;
    if (!this.tracking || this.keepsUnseen || this.kept.pages === this.previousPages) return;
    const seen = new Set(this.seen);
    for (const path of this.manifest.pages.keys()) {
      if (seen.has(path)) continue;
      this.manifest.pages.delete(path);
      this.manifest.inputs.delete(path);
      this.noted.pages.push(path);
    }
  }

  /**
   * Keeps the previous manifest's pages this build does not set, as they were: for a build that knows no page is
   * gone and skips the pages nothing it changed can touch (additions.ts), without a lookup for each of them.
   */
  keepUnseenPages(): void {
    this.keepsUnseen = true;
  }

  /** The pages and other files whose key differs from the previous manifest's, either way (added, changed or gone). */
  delta(): { pages: string[]; others: string[] } {
    this.finishPages();
    return { pages: this.noted.pages, others: this.differingOthers() };
  }

  private differingOthers(): string[] {
    const now = this.manifest.others;
    const before = this.previousOthers;
    // A name set twice may have ended where it began.
    const names = [...new Set(this.noted.others)].filter((name) => before.get(name) !== now.get(name));
    if (this.kept.others !== before.size) for (const name of before.keys()) if (!now.has(name)) names.push(name);
    return names;
  }
}
