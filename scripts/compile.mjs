// Compiles the Node side of felt (cli/ and site/, not the browser code) into
// lib/ with esbuild. Dependencies stay external: they are loaded from
// node_modules at run time, all but markdown-it, the GCS client and
// sanitize-html (below). The render worker and the writer thread
// (site/build/writeWorker.ts) are entries of their own, loaded by
// site/build/renderWorkers.ts from next to the CLI bundle. Each command's modules are imported when it runs (cli/commands/*):
// `felt build` never loads the servers' or the storage clients' code, `felt
// --help` loads commander alone.
import { build } from 'esbuild';
import { copyFile, readFile, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignClassFields } from './markdownItFields.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// markdown-it is bundled (its own dependencies stay external), its class fields assigned (markdownItFields.mjs).
const MARKDOWN_IT = fileURLToPath(import.meta.resolve('markdown-it'));
const markdownItFields = {
  name: 'markdown-it-fields',
  setup(b) {
    b.onResolve({ filter: /^markdown-it$/ }, () => ({ path: MARKDOWN_IT }));
    b.onLoad({ filter: /markdown-it\.mjs$/ }, async (args) => ({
      contents: assignClassFields(await readFile(args.path, 'utf8')),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * @google-cloud/storage and its tree (google-auth-library, gaxios, teeny-request, uuid, readable-stream...)
 * are bundled into the chunk that cli/storage/gcs.ts imports on a bucket's first request: about 150 small
 * CommonJS and ESM files that Node resolved, read and compiled one by one (package.json lookups included) on
 * every publish, pull and deploy to GCS, and one file instead. sanitize-html likewise (with htmlparser2 and
 * postcss, ~80 CommonJS files that `felt check` and every build and render worker load through the routes).
 * zod too: through the ES module loader its 91 files (every locale's messages among them) cost the build's
 * thread 20 ms more CPU to start than one bundled chunk (a `felt build` that stops after loading: 203 against
 * 225 ms, 15 interleaved runs), on the way to every build's first page.
 * Every other package stays external.
 */
const BUNDLED = new Set(['@google-cloud/storage', 'sanitize-html', 'zod']);

const GCS_CLIENT_MODULE = 'cli/storage/gcsClient.ts';

function isOwnSource(file) {
  const relative = path.relative(root, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative) && !relative.split(path.sep).includes('node_modules');
}

/**
 * CommonJS packages the build's threads import at start, loaded with require() rather than through Node's ES module
 * loader: for an `import` of CommonJS, Node reads each file's source again and scans it for export names, and
 * react's index.js names its development build too, which it then reads and scans as well (87 KB for react, 40 KB
 * for its JSX runtime). Importing React so took 25-35 ms of CPU against 8-10 ms with require(), and importing the
 * build's modules (lib/chunks/build-*.js) 195-212 ms against 140-153 ms with these four required: on the build's
 * thread, and again on each render worker, before the first page. Each import becomes a small module that requires
 * the package (with the banner's require) and exports its names, found here by loading it.
 */
const REQUIRED = ['react', 'react/jsx-runtime', 'react-dom/server', 'jsonc-parser'];
const requireFromRoot = createRequire(path.join(root, 'package.json'));

/** @type {import('esbuild').Plugin} */
const requiredPackages = {
  name: 'required-packages',
  setup(pluginBuild) {
    const filter = new RegExp(`^(${REQUIRED.join('|')})$`);
    pluginBuild.onResolve({ filter }, (args) =>
      args.kind === 'import-statement' && isOwnSource(args.importer) ? { path: args.path, namespace: 'required-package' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'required-package' }, (args) => {
      const names = Object.keys(requireFromRoot(args.path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      return {
        contents: `const m = require(${JSON.stringify(args.path)});\nexport default m;\nexport const { ${names.join(', ')} } = m;\n`,
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

/**
 * felt's own JSX runtime for the Node bundle (site/render/jsxRuntime.ts: React's elements without a copy of their
 * props). Resolved for felt's sources, not for the runtime itself, which hands what it does not make to React's.
 */
const JSX_RUNTIME = path.join(root, 'site', 'render', 'jsxRuntime.ts');
/** @type {import('esbuild').Plugin} */
const ownJsxRuntime = {
  name: 'own-jsx-runtime',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^react\/jsx-runtime$/ }, (args) =>
      args.namespace === 'file' && isOwnSource(args.importer) && args.importer !== JSX_RUNTIME ? { path: JSX_RUNTIME } : undefined,
    );
  },
};

/**
 * zod's own messages in English only. Its classic API exports every locale's messages (`z.locales`, 60 files, 313 KB
 * of its 826 KB of source) and configures English; felt shows English and never reads z.locales. Importing the
 * bundled zod took 66-68 ms with them and 43-49 ms without on this project's machine (2026-11-28, six imports each of
 * `export { z } from 'zod'` bundled both ways), on every felt command that validates anything. A zod whose locales
 * live elsewhere is bundled whole, as before: the filter then matches nothing.
 */
/** @type {import('esbuild').Plugin} */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.kind === 'entry-point') return undefined;
      // markdown-it is bundled for its class fields alone: its own dependencies stay in node_modules.
      if (args.importer === MARKDOWN_IT) return { path: args.path, external: true };
      // Imports made from inside a bundled package belong to its tree: bundled with it. felt's own sources are
      // those under its root outside node_modules; an installed felt is itself inside a node_modules folder.
      if (!isOwnSource(args.importer)) return undefined;
      const name = args.path
        .split('/')
        .slice(0, args.path.startsWith('@') ? 2 : 1)
        .join('/');
      // Only through its own module, which gcs.ts imports on first use: anywhere else it would be bundled into a
      // chunk every storage command loads at start (as checksum.ts once did for the CRC32C class).
      if (name === '@google-cloud/storage' && !args.importer.endsWith(GCS_CLIENT_MODULE)) {
        return { errors: [{ text: `import @google-cloud/storage only in ${GCS_CLIENT_MODULE} (loaded on a bucket's first request)` }] };
      }
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

const compiled = await build({
  absWorkingDir: root,
  entryPoints: {
    felt: 'cli/main.ts',
    'render-worker': 'site/build/renderWorker.ts',
    'write-worker': 'site/build/writeWorker.ts',
    'link-worker': 'site/build/linkWorker.ts',
  },
  outdir: 'lib',
  bundle: true,
  // Chunks let each command load its modules (the site's, the servers', GCS and OpenAI clients) only when run.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // markdown-it's and the JSX runtime's resolution first: the external-packages rule would otherwise leave them in
  // node_modules.
  plugins: [markdownItFields, ownJsxRuntime, requiredPackages, zodEnglishOnly, externalPackages],
  // The bundled CommonJS files call require() for Node's own modules: an ES module has none unless given one.
  banner: { js: "import { createRequire as __feltCreateRequire } from 'node:module'; const require = __feltCreateRequire(import.meta.url);" },
  jsx: 'automatic',
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
});

// Chunks are named by their hash, so every change of the code left the old ones beside the new (over a thousand
// files after a few days' work): those this compile did not write go. A felt process already running from the old
// bundle could still want one of them, so compile before running felt, as `npm start`, `npm test` and the benches do.
const written = new Set(Object.keys(compiled.metafile.outputs).map((file) => path.resolve(root, file)));
const chunks = path.join(root, 'lib', 'chunks');
for (const name of await readdir(chunks)) {
  const file = path.join(chunks, name);
  if (!written.has(file)) await rm(file, { force: true });
}

// The share card's encoder, as is: the thread that draws a cold build's cards early requires this file itself
// (site/pictures/earlyCards.ts looks for it beside the bundle), while rasterise.ts has it bundled like any module.
await copyFile(path.join(root, 'site/pictures/cardEncoder.cjs'), path.join(root, 'lib/cardEncoder.cjs'));
