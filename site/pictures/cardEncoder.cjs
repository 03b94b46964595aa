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

/** The share card's JPEG settings: part of the images' cache key with the other encoders' (rasterise.ts ENCODING). */
const CARD_JPEG = { quality: 82 };

/** The share card of an SVG: its JPEG bytes. */
function encodeCard(sharp, svg) {
  return sharp(Buffer.from(svg)).removeAlpha().jpeg(CARD_JPEG).toBuffer();
}

module.exports = { CARD_JPEG, encodeCard };
