/**
 * A cold build's share cards, started before the build has loaded anything.
 *
 * The cards are drawn from the categories alone (shareCards.ts: each
 * subcategory's variants and the site's card, 85 on the bundled categories,
 * about 0.5 s of CPU), but the cover stage learns which ones the site shows
 * only once its articles are loaded and filed, and then makes them while the
 * pages render, on cores the pages need. Meanwhile, for the first 0.4 s of a
 * cold 1,000-article build (1.3 s at 10,000), the render worker has loaded its
 * modules and waits for its first pages while the build's thread loads the
 * content: a core with nothing to do.
 *
 * So `felt build`, when it renders every page and has no image cache
 * (`.felt-cache/images/`: the cards would be read from it), starts a thread
 * of its own that loads sharp and draws every card the categories allow, in
 * their order (startEarlyCards). A card's bytes are a pure function of its
 * SVG (the encoder and its settings are fixed: cardEncoder.cjs, which both
 * threads run), so the cover stage asks for a card by its SVG (takeEarlyCard)
 * and gets the same bytes it would have made; once it knows which cards the
 * site shows, the thread draws no other (keepEarlyCards). sharp (0.1 s to
 * load) then never loads on the build's own thread. The settings files are
 * read as the settings loader reads them (settingsFiles.ts: a FIFO or a file
 * over its limit is not opened, a byte-order mark is allowed), without their
 * schemas: zod is not loaded before this thread starts. Whatever fails here
 * (a file the loader refuses, which then fails the build with its line;
 * sharp or the encoder's file missing) leaves the cover stage to make its
 * cards as before: nothing of the output depends on this module.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { besideModule, cacheFolderOf } from '../../shared/paths.ts';
import { readSettingsValue } from '../../shared/settingsFiles.ts';
import { coverSvg, type CoverSubject } from './coverArt.ts';
import { COVER_HEIGHT, COVER_WIDTH } from './coverSizes.ts';
import { CARD_VARIANTS, siteCardSubject, subcategoryCardSubject } from './shareCards.ts';

// CommonJS, run with eval: nothing of felt's to compile; the encoder is cardEncoder.cjs, the file rasterise.ts uses.
// One card at a time, as the cover stage makes them (two at a time held more memory for no shorter build), and a
// turn of the event loop between cards so that the list of cards to keep arrives before the next is started.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sharp = require(workerData.sharp);
const { encodeCard } = require(workerData.encoder);
let keep;
parentPort.on('message', (message) => (keep = new Set(message.keep)));
(async () => {
  for (let i = 0; i < workerData.svgs.length; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (keep && !keep.has(workerData.svgs[i])) continue;
    try {
      const bytes = await encodeCard(sharp, workerData.svgs[i]);
      parentPort.postMessage({ i, bytes });
    } catch (error) {
      parentPort.postMessage({ i, error: String(error) });
    }
  }
  parentPort.close();
})();
`;

interface Pending {
  promise: Promise<Buffer>;
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

/** The cards under way, by their SVG; empty when none were started. */
const cards = new Map<string, Pending>();
let worker: Worker | undefined;

/**
 * The SVGs of every share card the categories allow, in the order of categories.json, then the site's card: read
 * as the settings loader reads the files, but not validated (loadContent does that; a file it refuses makes no card
 * here, and a value of the wrong shape makes cards the site does not show, which are dropped).
 */
export async function possibleCardSvgs(contentDir: string): Promise<string[]> {
  const categories = (await readSettingsValue(contentDir, 'categories')) as Record<string, { children?: Record<string, unknown> | null }> | undefined;
  const site = (await readSettingsValue(contentDir, 'settings')) as { brand?: unknown } | undefined;
  if (!categories || !site) return [];
  const subjects: CoverSubject[] = [];
  for (const [category, node] of Object.entries(categories)) {
    for (const subcategory of Object.keys(node.children ?? {})) {
      for (let variant = 1; variant <= CARD_VARIANTS; variant++) subjects.push(subcategoryCardSubject(category, subcategory, variant));
    }
  }
  if (typeof site.brand === 'string') subjects.push(siteCardSubject(site.brand));
  return subjects.map(cardSvg);
}

/** A share card's SVG (what its JPEG is made from), at the card's size. */
export function cardSvg(subject: CoverSubject): string {
  return coverSvg(subject, COVER_WIDTH, COVER_HEIGHT);
}

/** Whether this process started the early thread (and it may hold cards). */
export function earlyCardsUnderWay(): boolean {
  return cards.size > 0;
}

/**
 * Starts drawing the share cards of `contentDir`'s categories on a thread of their own, when the build will make
 * them: it renders every page and there is no image cache. Returns whether it started.
 */
export async function startEarlyCards(contentDir: string): Promise<boolean> {
  if (worker || existsSync(path.join(cacheFolderOf(contentDir), 'images'))) return false;
  // Beside this module in the sources; in lib/, where scripts/compile.mjs copies it beside the CLI's bundle.
  const encoder = besideModule(import.meta.url, 'cardEncoder.cjs');
  let svgs: string[];
  let sharp: string;
  try {
    svgs = await possibleCardSvgs(contentDir);
    sharp = createRequire(import.meta.url).resolve('sharp');
  } catch {
    return false;
  }
  if (!encoder || svgs.length === 0 || worker) return false;
  // By the thread's numbering; `cards` (what is still to take) forgets a card when it is taken, this does not.
  const drawn = svgs.map((svg) => {
    let resolve!: (bytes: Buffer) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<Buffer>((yes, no) => ((resolve = yes), (reject = no)));
    // A card nobody takes may fail unheard: the cover stage makes the cards it takes again when they fail.
    promise.catch(() => undefined);
    const card = { promise, resolve, reject };
    cards.set(svg, card);
    return card;
  });
  const started = new Worker(SOURCE, { eval: true, workerData: { svgs, sharp, encoder } });
  worker = started;
  // It never holds the process open: a build that ends (or fails) before the thread does is done.
  started.unref();
  started.on('message', (message: { i: number; bytes?: Uint8Array; error?: string }) => {
    const card = drawn[message.i]!;
    if (message.bytes) card.resolve(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
    else card.reject(new Error(message.error));
  });
  const gone = (error: Error) => {
    for (const card of drawn) card.reject(error);
  };
  started.once('error', gone);
  // Settled cards ignore this; a card it never drew (dropped, or the thread stopped) is no longer coming.
  started.once('exit', () => gone(new Error('the share-card thread stopped before drawing this card')));
  return true;
}

/** The card of this SVG, drawn or being drawn by the early thread; undefined when it was never started here. */
export function takeEarlyCard(svg: string): Promise<Buffer> | undefined {
  const card = cards.get(svg);
  cards.delete(svg);
  return card?.promise;
}

/** The cards the site shows, once the cover stage knows them: the thread draws no other. */
export function keepEarlyCards(svgs: Iterable<string>): void {
  if (!worker) return;
  const keep = new Set(svgs);
  worker.postMessage({ keep: [...keep] });
  for (const svg of cards.keys()) if (!keep.has(svg)) cards.delete(svg);
  // The cover stage waits for these now: the thread holds the process open until it has drawn them (and ends).
  if (cards.size > 0) worker.ref();
}
