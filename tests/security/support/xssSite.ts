/**
 * A content folder in which every field that reaches a page carries the
 * script-injection corpus (one-line fields, an article's title and
 * description, with its line breaks as spaces): article titles, descriptions, bodies, entities
 * (subcategories and subsubcategories, and an unknown category), author
 * names, biographies and meta fields, category and subcategory titles and
 * descriptions, an info page, and the ad network's HTML.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fixtureCopy } from '../../site/helpers.ts';
import { XSS_PAYLOADS } from '../../fixtures/security/xssVectors.ts';

/** A YAML double-quoted scalar: JSON escapes, and everything outside ASCII as \u. */
export function yamlString(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const pad = (n: number) => String(n).padStart(3, '0');
export const articleSlug = (n: number) => `xss-${pad(n)}`;
export const authorSlug = (n: number) => `xss-author-${pad(n)}`;
export const topicSlug = (n: number) => `xss-topic-${pad(n)}`;
export const topicKey = (n: number) => `xss${pad(n)}`;
/** Author and subcategory pages are opened for every GROUP-th vector. */
export const GROUP = 4;
/** The category that holds one subcategory per vector. */
export const TOPIC_CATEGORY = 'ultimate-poker-guides-strategies';

/** The body must stay a text file: a raw NUL would (rightly) refuse the whole article. */
const bodySafe = (payload: string) => payload.replace(/\0/g, '');

/**
 * Text fields refuse control characters and lone surrogates (validation, see
 * tests/security/badContent.test.ts); the few vectors that hold one carry it
 * as U+FFFD there. Ad HTML and markdown bodies get them as they are.
 */
export const fieldSafe = (payload: string) =>
  // eslint-disable-next-line no-control-regex -- mirrors what the schema strips
  payload.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '').replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** A one-line field (an article's title and description) refuses line feeds: its vectors have each run of them as one space. */
export const lineSafe = (payload: string) => fieldSafe(payload).replace(/\n+/g, ' ');

function articleFile(n: number, payload: string): string {
  const y = yamlString(fieldSafe(payload));
  const line = yamlString(lineSafe(payload));
  return [
    '---',
    `title: ${line}`,
    `slug: ${articleSlug(n)}`,
    `description: ${line}`,
    `author: ${y}`,
    'date: 2026-01-01',
    'updated: 2026-02-01',
    'locale: en_US',
    'entities:',
    '  - category: pokerGuides',
    '    subcategories:',
    `      - subcategory: ${topicKey(n)}`,
    `        subsubcategories: [${y}]`,
    `      - subcategory: ${y}`,
    `        subsubcategories: [${y}]`,
    `  - category: ${y}`,
    '---',
    `${bodySafe(payload)}`,
    '',
    `## ${bodySafe(payload).split('\n')[0]}`,
    '',
    `Text with ${bodySafe(payload)} inline.`,
    '',
    `- ${bodySafe(payload).split('\n')[0]}`,
    '',
    `> ${bodySafe(payload).split('\n')[0]}`,
    '',
  ].join('\n');
}

export interface XssSite {
  contentDir: string;
  /** The payload of each vector as text fields hold it (see fieldSafe). */
  payloads: readonly string[];
  /** The same, as one-line fields hold it: an article's title and description (see lineSafe). */
  lines: readonly string[];
}

export async function makeXssContent(): Promise<XssSite> {
  const contentDir = await fixtureCopy();
  const raw = XSS_PAYLOADS;
  const payloads = raw.map(fieldSafe);

  const settings = JSON.parse(await readFile(path.join(contentDir, 'site.json'), 'utf8'));
  settings.home = { moreAwesomeStuff: 50, ourBestStories: 100, updatedArticles: 50, pageSize: 200, perCategory: 20 };
  settings.sponsored = { style: 'list' };
  await writeFile(path.join(contentDir, 'site.json'), JSON.stringify(settings, null, 2));

  // Pages shown per vector are sampled (every GROUP-th author and subcategory page): the
  // fields only those pages show carry the vectors of the whole group, so every vector is
  // still seen in every field.
  const group = (n: number) => payloads.slice(n - (n % GROUP), n - (n % GROUP) + GROUP).join(' ');
  const authors = JSON.parse(await readFile(path.join(contentDir, 'authors.json'), 'utf8')) as unknown[];
  payloads.forEach((payload, n) =>
    authors.push({ name: payload, slug: authorSlug(n), description: payload, meta_title: group(n), meta_description: group(n) }),
  );
  await writeFile(path.join(contentDir, 'authors.json'), JSON.stringify(authors, null, 2));

  const categories = JSON.parse(await readFile(path.join(contentDir, 'categories.json'), 'utf8')) as Record<
    string,
    { title: Record<string, string>; description: Record<string, string>; children: Record<string, unknown> }
  >;
  Object.values(categories).forEach((category, i) => {
    category.title.en = payloads[i]!;
    category.description.en = payloads[i + 10]!;
  });
  payloads.forEach((payload, n) => {
    categories.pokerGuides!.children[topicKey(n)] = { slug: topicSlug(n), title: { en: payload }, description: { en: group(n) }, children: null };
  });
  await writeFile(path.join(contentDir, 'categories.json'), JSON.stringify(categories, null, 2));

  const all = raw.join('\n');
  const sapeLinks: Record<string, string[]> = { '/': [...raw], '/authors': [...raw], '/sitemap': [...raw] };
  raw.forEach((payload, n) => {
    sapeLinks[`/articles/${articleSlug(n)}`] = [payload, `<a href="https://ads.example/${n}">${payload}</a>`];
    sapeLinks[`/authors/${authorSlug(n)}`] = [payload];
    sapeLinks[`/${TOPIC_CATEGORY}/${topicSlug(n)}`] = [payload];
  });
  await writeFile(path.join(contentDir, 'ads.json'), JSON.stringify({ sapeNewUrl: all, sapeLinks }, null, 2));

  const folder = path.join(contentDir, 'articles', 'en_US');
  await mkdir(folder, { recursive: true });
  await Promise.all(raw.map((payload, n) => writeFile(path.join(folder, `${articleSlug(n)}.md`), articleFile(n, payload))));

  const infoBody = raw.map(bodySafe).join('\n\n');
  for (const id of ['about-us', 'privacy-policy', 'terms']) {
    await writeFile(
      path.join(contentDir, 'pages', 'en', `${id}.md`),
      `---\ntitle: ${yamlString(payloads[3]!)}\ndescription: ${yamlString(payloads[4]!)}\n---\n${infoBody}\n`,
    );
  }
  // Other locales' folders are not built; keep the run to the corpus.
  await rm(path.join(contentDir, 'articles', 'ru_RU'), { recursive: true, force: true });
  return { contentDir, payloads, lines: raw.map(lineSafe) };
}

/** Every file below dir, relative, with forward slashes. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out;
}
