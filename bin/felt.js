#!/usr/bin/env node
// The felt command. The TypeScript sources are compiled by `npm install`
// (the prepare script) into lib/; this file only loads that bundle.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// React and other libraries pick their production builds from NODE_ENV when
// first loaded; the development builds make a site build several times slower.
process.env.NODE_ENV ??= 'production';

const bundle = new URL('../lib/felt.js', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  console.error('felt: lib/felt.js is missing. Run `npm install` (or `npm run compile`) in the felt folder first.');
  process.exit(1);
}
const { main } = await import(bundle.href);
process.exitCode = await main(process.argv);
