/**
 * The share card's encoder: a card's SVG, drawn at its size by sharp
 * (libvips), as a JPEG with fixed settings. Two threads run it: rasterise.ts
 * (shareCard, and the card of a provider picture with CARD_JPEG) and the
 * thread that draws a cold build's cards early (earlyCards.ts), which must
 * give the very same bytes. That thread runs plain JavaScript with nothing of
 * felt's compiled, so this file is plain CommonJS: it requires this file
 * itself (beside earlyCards.ts in the sources, beside the CLI's bundle in
 * lib/, where scripts/compile.mjs copies it). sharp is given, not required
 * here: it loads only when a picture is made.
 */
/* global module -- CommonJS: the file the early share-card thread requires */
'use strict';

/**
 * The share card's JPEG settings: part of the images' cache key with the other encoders' (rasterise.ts ENCODING).
 *
 * Without optimiseCoding: libjpeg's second pass, which fits the Huffman tables to the picture, changes no pixel and
 * took 1.7 of a card's 6.7 ms of CPU (the 85 cards of the bundled categories, `sharp.concurrency(1)`). What it
 * saved (a card is 30 KB without it, 24 KB with it) goes only to the crawlers that read og:image, never to a reader
 * of the page, while a cold build waits for its cards: `node bench/ab.mjs` (eight alternating pairs at 1,000
 * articles, six at 10,000, the image cache moved away before each build) gave medians of 1.15 → 1.08 s and
 * 4.10 → 3.91 s, and a build's peak 16 MB lower at 10,000.
 */
const CARD_JPEG = { quality: 82, optimiseCoding: false };

/** The share card of an SVG: its JPEG bytes. */
function encodeCard(sharp, svg) {
  return sharp(Buffer.from(svg)).removeAlpha().jpeg(CARD_JPEG).toBuffer();
}

module.exports = { CARD_JPEG, encodeCard };
