#!/usr/bin/env node
// The felt command. The TypeScript sources are compiled by `npm install`
// (the prepare script) into lib/; this file only loads that bundle.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// An older Node fails deep inside a build (Dirent.parentPath arrived in 20.12),
// so refuse it up front with the version package.json's "engines" names.
const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const needed = /(\d+)\.(\d+)/.exec(engines.node).slice(1).map(Number);
const running = process.version.slice(1).split('.').map(Number);
if (running[0] < needed[0] || (running[0] === needed[0] && running[1] < needed[1])) {
  console.error(`felt: needs Node ${needed.join('.')} or newer, this is ${process.version}. Install a newer Node (https://nodejs.org) and run felt again.`);
  process.exit(1);
}

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
