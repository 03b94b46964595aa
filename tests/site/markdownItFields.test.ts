/**
 * Issue 13: the compiled CLI bundles markdown-it with its class fields
 * assigned (scripts/markdownItFields.mjs) instead of stored through the
 * published build's generic `_defineProperty` helper, which made parsing
 * about 30% slower. The transformed module must parse and render exactly as
 * the package does: every markdown file of the bundled content and the test
 * fixtures, and a few constructs they lack, with felt's options and with
 * markdown-it's defaults. `npm run compile` first (the first test reads lib/).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { afterAll, describe, expect, it } from 'vitest';
import { assignClassFields } from '../../scripts/markdownItFields.mjs';
import { markdownDocuments } from '../support/markdownDocuments.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = path.join(ROOT, 'node_modules', 'markdown-it', 'dist', 'markdown-it.mjs');

const EXTRA = [
  '# Title\n\nSome *emphasis*, **strong**, `code`, a [link](https://example.com "t") and <b>raw html</b>.',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n\n> quote\n> - list in quote\n\n1. one\n2. two\n   - nested',
  '```js\nconst x = "<tag>";\n```\n\n    indented code\n\n---\n\n![alt](/img.png) https://autolink.example "quotes" -- (c) ...',
  'Setext\n======\n\nline  \nbreak\\\nand &amp; &copy; &#35; entities\n\n[ref][1]\n\n[1]: /target',
];

describe('markdown-it in the compiled CLI', () => {
  const temp = mkdtemp(path.join(ROOT, '.markdown-it-test-'));
  afterAll(async () => rm(await temp, { recursive: true, force: true }));

  it('is bundled with its class fields assigned, not stored through _defineProperty', async () => {
    // The modules the render worker loads (lib/ may hold stale chunks of an earlier compile beside them).
    const loaded = new Map<string, string>();
    const visit = async (file: string) => {
      if (loaded.has(file)) return;
      const source = await readFile(file, 'utf8');
      loaded.set(file, source);
      for (const [, relative] of source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) await visit(path.resolve(path.dirname(file), relative!));
    };
    await visit(path.join(ROOT, 'lib', 'render-worker.js'));
    const sources = [...loaded.values()];
    expect(sources.some((s) => /from\s*"markdown-it"/.test(s))).toBe(false);
    const markdownIt = sources.filter((s) => s.includes('var Token = class'));
    expect(markdownIt).toHaveLength(1);
    expect(markdownIt[0]).not.toMatch(/_defineProperty\(\s*this/);
    expect(markdownIt[0]).toContain('this.content =');
  });

  it('renders every document as the package does', async () => {
    const source = await readFile(PACKAGE, 'utf8');
    const transformed = assignClassFields(source);
    expect(transformed).not.toBe(source);
    // Written inside the repository, so that its own imports (mdurl, entities, …) resolve from node_modules.
    const file = path.join(await temp, 'markdown-it.mjs');
    await writeFile(file, transformed.replace(/^\/\/# sourceMappingURL=.*$/m, ''));
    const Fast = ((await import(pathToFileURL(file).href)) as { default: typeof MarkdownIt }).default;

    const documents = [...EXTRA, ...(await markdownDocuments('content', 'tests/fixtures'))];
    expect(documents.length).toBeGreaterThan(50);
    for (const options of [{ html: false, linkify: false, typographer: true }, {}, { html: true, linkify: true }]) {
      const [package_, fast] = [new MarkdownIt(options), new Fast(options)];
      for (const doc of documents) {
        expect(fast.render(doc)).toBe(package_.render(doc));
        expect(JSON.stringify(fast.parse(doc, {}))).toBe(JSON.stringify(package_.parse(doc, {})));
      }
    }
  });
});
