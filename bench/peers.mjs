// The peers of `npm run bench`: Hugo (Debian's package) and Eleventy (npm),
// each given the same articles with equivalent minimal templates: a page per
// article, a home page listing the newest, and a page per category.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PEERS_DIR = path.join(ROOT, 'bench', '.peers');
const ELEVENTY_VERSION = '3.1.5';

/** Installs what is missing: Hugo from apt, Eleventy from npm into bench/.peers. */
export function ensurePeers() {
  const missing = [];
  try {
    execFileSync('hugo', ['version'], { stdio: 'ignore' });
  } catch {
    console.log('installing Hugo (apt-get install hugo)…');
    try {
      execFileSync('apt-get', ['install', '-y', '-qq', 'hugo'], { stdio: 'inherit' });
    } catch {
      missing.push('hugo');
    }
  }
  const eleventy = path.join(PEERS_DIR, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs');
  if (!existsSync(eleventy)) {
    console.log(`installing Eleventy ${ELEVENTY_VERSION} into bench/.peers…`);
    execFileSync('npm', ['install', '--prefix', PEERS_DIR, '--no-audit', '--no-fund', '--no-save', `@11ty/eleventy@${ELEVENTY_VERSION}`], { stdio: 'inherit' });
  }
  return { hugo: !missing.includes('hugo'), eleventy };
}

/** felt's article files, with `categories:` added for the peers' taxonomies. */
async function* peerArticles(contentDir) {
  const folder = path.join(contentDir, 'articles', 'en_US');
  for (const name of (await readdir(folder)).sort()) {
    const text = await readFile(path.join(folder, name), 'utf8');
    const category = /\n {2}- category: (\w+)/.exec(text)[1];
    yield { name, text: text.replace('\nlocale: en_US\n', `\nlocale: en_US\ncategories: ["${category}"]\n`) };
  }
}

export async function writeHugoSite(contentDir, dir) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'content', 'articles'), { recursive: true });
  await mkdir(path.join(dir, 'layouts', '_default'), { recursive: true });
  await writeFile(
    path.join(dir, 'config.toml'),
    'baseURL = "https://bench.example/"\ntitle = "Bench"\ndisableKinds = ["RSS"]\n[pagination]\npagerSize = 16\n[taxonomies]\ncategory = "categories"\n',
  );
  const shell = (body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><header><a href="/">Bench</a></header><main>${body}</main><footer>© Bench</footer></body></html>`;
  await writeFile(
    path.join(dir, 'layouts', '_default', 'single.html'),
    shell('<article><h1>{{ .Title }}</h1><p>{{ .Date.Format "January 2, 2006" }} · {{ .ReadingTime }} min</p>{{ .Content }}</article>'),
  );
  await writeFile(
    path.join(dir, 'layouts', '_default', 'list.html'),
    shell('<h1>{{ .Title }}</h1><ul>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>'),
  );
  await writeFile(
    path.join(dir, 'layouts', 'index.html'),
    shell('<ul>{{ range first 16 (where .Site.RegularPages "Section" "articles") }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>'),
  );
  for await (const { name, text } of peerArticles(contentDir)) await writeFile(path.join(dir, 'content', 'articles', name), text);
}

export async function writeEleventySite(contentDir, dir) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'src', 'articles'), { recursive: true });
  await mkdir(path.join(dir, 'src', '_includes'), { recursive: true });
  await writeFile(
    path.join(dir, 'eleventy.config.cjs'),
    `module.exports = function (config) {
  config.addCollection('articles', (api) => api.getFilteredByGlob('src/articles/*.md').sort((a, b) => b.date - a.date));
  return { dir: { input: 'src' } };
};\n`,
  );
  const shell = (body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title></head><body><header><a href="/">Bench</a></header><main>${body}</main><footer>© Bench</footer></body></html>`;
  await writeFile(
    path.join(dir, 'src', '_includes', 'article.njk'),
    shell('<article><h1>{{ title }}</h1><p>{{ page.date.toDateString() }}</p>{{ content | safe }}</article>'),
  );
  await writeFile(path.join(dir, 'src', 'articles', 'articles.json'), JSON.stringify({ layout: 'article.njk', permalink: '/articles/{{ slug }}/' }));
  await writeFile(
    path.join(dir, 'src', 'index.njk'),
    `---\npagination:\n  data: collections.articles\n  size: 16\n  alias: items\npermalink: "/{% if pagination.pageNumber > 0 %}page/{{ pagination.pageNumber + 1 }}/{% endif %}"\n---\n${shell('<ul>{% for item in items %}<li><a href="{{ item.url }}">{{ item.data.title }}</a></li>{% endfor %}</ul>')}`,
  );
  await writeFile(
    path.join(dir, 'src', 'categories.njk'),
    `---\npagination:\n  data: collections\n  size: 1\n  alias: category\n  filter: ["all", "articles"]\npermalink: "/categories/{{ category | slugify }}/"\n---\n${shell('<h1>{{ category }}</h1><ul>{% for item in collections[category] | reverse %}<li><a href="{{ item.url }}">{{ item.data.title }}</a></li>{% endfor %}</ul>')}`,
  );
  for await (const { name, text } of peerArticles(contentDir)) {
    const tagged = text.replace(/\ncategories: \["(\w+)"\]\n/, '\ntags: ["$1"]\n');
    await writeFile(path.join(dir, 'src', 'articles', name), tagged);
  }
}
