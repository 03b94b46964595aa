/**
 * felt dev: rebuilds what changed and reloads, shows errors as an overlay
 * while it keeps running, and saves an edited title to the markdown file.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceTitle, saveArticleTitle } from '../../site/dev/editTitle.ts';
import { startDev, type DevServer } from '../../site/dev/devServer.ts';
import { launchChromium, type Browser } from '../support/chromium.ts';
import { contentProblems, fixtureCopy, tempDir } from '../site/helpers.ts';

let dev: DevServer;
let content: string;
let browser: Browser;
const article = () => path.join(content, 'articles/en_US/table-talk.md');

beforeAll(async () => {
  content = await fixtureCopy();
  dev = await startDev({ contentDir: content, outDir: path.join(await tempDir(), 'dev'), port: 0, log: () => {} });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await dev?.close();
});

describe('felt dev', () => {
  it('serves the site with its live-reload script', async () => {
    const html = await (await fetch(`${dev.url}/articles/table-talk`)).text();
    expect(html).toContain('Talk less, listen more.');
    // Stamped with the build it was served from: a page whose event stream connects after a later build reloads.
    expect(html).toMatch(/<script src="\/__felt\/dev\.js" type="module" data-build="1"><\/script><\/body>/);
  });

  it('rebuilds only the edited article and the open page reloads with it', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${dev.url}/articles/table-talk`);
    await page.waitForFunction(() => document.readyState === 'complete');
    // felt dev's first build rendered every page and keyed none with inputs (build.ts): the first edit renders the
    // pages whose inputs it changed (the article, its neighbours, its listings), and keys them.
    const first = dev.rebuilt();
    const firstReload = page.waitForEvent('load');
    await writeFile(article(), (await readFile(article(), 'utf8')).replace('Talk less, listen more.', 'Talk less, listen much more.'));
    const firstBuild = await first;
    expect(firstBuild).toMatchObject({ rendered: expect.any(Number) });
    expect((firstBuild as { rendered: number }).rendered).toBeLessThan(12);
    await firstReload;
    const rebuilt = dev.rebuilt();
    const reloaded = page.waitForEvent('load');
    const started = Date.now();
    await writeFile(article(), (await readFile(article(), 'utf8')).replace('Talk less, listen much more.', 'Talk less, listen far more.'));
    const result = await rebuilt;
    await reloaded;
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ rendered: 1 });
    expect(await page.locator('main').innerText()).toContain('listen far more');
    console.log(`felt dev: edit to reloaded page in ${elapsed} ms`);
    await page.close();
  });

  it('reloads a page whose event stream connected only after a rebuild it missed', async () => {
    // The race that made the test above fail now and then on a busy machine: the edit's build finished, and its
    // 'reload' went out, before the page's event stream had connected. Here the stream is held until it has.
    const page = await browser.context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/__felt/events', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${dev.url}/articles/table-talk`);
    const rebuilt = dev.rebuilt();
    await writeFile(article(), (await readFile(article(), 'utf8')).replace(/Talk less, listen [^.]*\./, 'Talk less, listen even more.'));
    expect(await rebuilt).toMatchObject({ rendered: expect.any(Number) });
    const reloaded = page.waitForEvent('load');
    release();
    await reloaded;
    expect(await page.locator('main').innerText()).toContain('listen even more');
    await page.close();
  });

  it('shows a content error as an overlay and keeps running, then recovers', async () => {
    const good = await readFile(article(), 'utf8');
    const rebuilt = dev.rebuilt();
    await writeFile(article(), good.replace('author: Dev Raghunathan', 'author: Nobody Known'));
    expect(await rebuilt).toMatchObject({ title: '1 problem in content' });
    const overlay = await fetch(`${dev.url}/articles/table-talk`, { headers: { accept: 'text/html' } });
    expect(overlay.status).toBe(500);
    expect(await overlay.text()).toMatch(/table-talk\.md:5 field &quot;author&quot;: author &quot;Nobody Known&quot; is not in authors\.json/);
    const fixed = dev.rebuilt();
    await writeFile(article(), good);
    expect(await fixed).toMatchObject({ pages: 31 });
    expect((await fetch(`${dev.url}/articles/table-talk`)).status).toBe(200);
  });

  it('saves an article title edited in place: Enter saves, Esc cancels', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${dev.url}/articles/table-talk`);
    const title = page.locator('.article-title');
    await title.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (draft)');
    await page.keyboard.press('Escape');
    expect(await title.innerText()).toBe('Table Talk');
    expect(await readFile(article(), 'utf8')).toContain('title: Table Talk\n');

    const rebuilt = dev.rebuilt();
    await title.click();
    await page.keyboard.press('End');
    await page.keyboard.type('  at the Final Table  ');
    await page.keyboard.press('Enter');
    await rebuilt;
    expect(await readFile(article(), 'utf8')).toContain('title: "Table Talk  at the Final Table"\n');
    await page.close();
  });

  it('rebuilds after every one of five title edits to the same article, each saved by rename (issue 16)', async () => {
    const titles = ['First Steps, One', 'First Steps, Two', 'First Steps, Three', 'First Steps, Four', 'First Steps, Five'];
    const rebuilds: string[] = [];
    for (const title of titles) {
      const rebuilt = dev.rebuilt();
      const saved = await fetch(`${dev.url}/__felt/title`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'first-steps', title }),
      });
      expect(saved.status).toBe(204);
      const outcome = await Promise.race([rebuilt.then(() => 'rebuilt'), sleep(5000).then(() => 'no rebuild in 5 s')]);
      rebuilds.push(`${title}: ${outcome}`);
    }
    expect(rebuilds).toEqual(titles.map((title) => `${title}: rebuilt`));
    // The build reading the file it changes its access time: that is no sixth edit.
    expect(await Promise.race([dev.rebuilt().then(() => 'another rebuild'), sleep(500).then(() => 'no other rebuild')])).toBe('no other rebuild');
    expect(await (await fetch(`${dev.url}/articles/first-steps`)).text()).toContain('First Steps, Five');
  });

  it('refuses title edits from other origins and bad slugs', async () => {
    const foreign = await fetch(`${dev.url}/__felt/title`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'table-talk', title: 'pwned' }),
    });
    expect(foreign.status).toBe(403);
    const traversal = await fetch(`${dev.url}/__felt/title`, { method: 'POST', body: JSON.stringify({ slug: '../../site', title: 'x' }) });
    expect(traversal.status).toBe(400);
    expect(await readFile(article(), 'utf8')).not.toContain('pwned');
  });
});

describe('replacing a title', () => {
  it('strips line breaks, trims, quotes safely and keeps the rest of the file', () => {
    const source = '---\ntitle: >\n  Folded\n  title\nslug: x\n---\nBody\n';
    expect(replaceTitle(source, 'He said "hi": #1')).toBe('---\ntitle: "He said \\"hi\\": #1"\nslug: x\n---\nBody\n');
  });

  it('saves the same article from several requests at once: each succeeds and the file stays whole', async () => {
    const folder = await fixtureCopy();
    const titles = Array.from({ length: 8 }, (_, i) => `Table talk, take ${i + 1}`);
    const saved = await Promise.allSettled(titles.map((title) => saveArticleTitle(folder, 'en_US', 'table-talk', title)));
    expect(saved.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    const text = await readFile(path.join(folder, 'articles/en_US/table-talk.md'), 'utf8');
    expect(titles.map((t) => `title: "${t}"`)).toContain(/^title: .*$/m.exec(text)?.[0]);
    expect(text).toContain('Talk less, listen more.');
    expect(await readdir(path.join(folder, 'articles/en_US'))).not.toContainEqual(expect.stringMatching(/\.tmp$/));
  });
});

describe('titles the editor refuses and keeps (issue 16)', () => {
  const post = (title: string) =>
    fetch(`${dev.url}/__felt/title`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'poker-basics', title }),
    });
  const file = () => path.join(content, 'articles/en_US/poker-basics.md');

  it.each([
    ['DEL', 'Poker\u007FBasics'],
    ['NUL', 'Poker\u0000Basics'],
    ['ESC', '\u001B[31mPoker Basics'],
    ['a lone surrogate', 'Poker Basics \uD83C'],
    ['nothing but spaces', '   '],
    ['201 characters', 'x'.repeat(201)],
  ])('answers 400 with the reason to a title with %s, and leaves the file alone', async (_what, title) => {
    const before = await readFile(file(), 'utf8');
    const answer = await post(title);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/the title must (not contain control characters|not be empty|be at most 200 characters)/);
    expect(await readFile(file(), 'utf8')).toBe(before);
  });

  it('saves any title felt check accepts, and felt check reads back the same title', async () => {
    const folder = await fixtureCopy();
    const titles = [
      'Quotes "double" and \'single\'',
      'Back\\slash \\n and \\u0041',
      '# Not a comment: key: value',
      '- a list? no',
      '--- three dashes',
      'Tab\there',
      'Emoji 🂡 and 한국어',
      'Line\u2028separator and next\u0085line',
      '&amp; <b>bold</b> {{x}}',
      "It's 'yes' & no",
    ];
    const loaded = [];
    for (const title of titles) {
      await saveArticleTitle(folder, 'en_US', 'table-talk', title);
      expect(await contentProblems(folder), title).toEqual([]);
      const { loadContent } = await import('../../site/content/loadContent.ts');
      loaded.push((await loadContent(folder)).articles.en_US.find((article) => article.slug === 'table-talk')?.title);
    }
    expect(loaded).toEqual(titles);
  });
});

describe('felt dev behind a rebound name', () => {
  it('refuses its own routes to a host that is not loopback', async () => {
    const http = await import('node:http');
    const { port } = new URL(dev.url);
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/__felt/events', headers: { host: `rebind.example:${port}` } }, (response) => {
          resolve(response.statusCode!);
          response.destroy();
        })
        .on('error', reject);
    });
    expect(status).toBe(403);
  });
});

describe('felt dev on a port in use', () => {
  it('says so before it builds anything', async () => {
    const net = await import('node:net');
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const out = path.join(await tempDir(), 'dev');
    try {
      await expect(startDev({ contentDir: await fixtureCopy(), outDir: out, port, log: () => {} })).rejects.toMatchObject({
        code: 'PORT_IN_USE',
        message: `port ${port} is already in use`,
      });
      // Nothing built: the port was asked for first (the build used to run, then the port was found taken).
      expect(await readdir(path.dirname(out))).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
