/**
 * Article markdown → safe HTML plus the table of contents.
 *
 * The build's hot path uses markdown-it: it parses an article about ten times
 * faster than unified/remark (0.4 ms against 4.4 ms per article on this
 * machine, issue #5), which decides whether a 10,000-article build takes
 * seconds or most of a minute. unified/remark-parse stays where content is
 * analysed (generation checks in cli/generate).
 *
 * Markdown comes from an LLM and is untrusted: raw HTML is escaped, never
 * passed through (html: false), and markdown-it's validateLink refuses
 * javascript:, vbscript:, file: and non-image data: URLs.
 */
import MarkdownIt, { type Token } from 'markdown-it';
import { slugify } from '../../shared/names.ts';
import { countWords } from '../../shared/words.ts';
import { withFasterScans } from './markdownScans.ts';

export interface TocEntry {
  id: string;
  text: string;
  level: 2 | 3;
}

export interface RenderedMarkdown {
  html: string;
  toc: TocEntry[];
  words: number;
  /** The first paragraph as plain text. */
  firstParagraph: string;
}

// The package's parser with its two hottest scans done by the engine's string search (markdownScans.ts).
const md = withFasterScans(new MarkdownIt({ html: false, linkify: false, typographer: true }));

// External links leave the site: never pass the opener, never vouch for them.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const href = String(token.attrGet('href') ?? '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) token.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// Images in LLM text would load from anywhere: show their alt text instead.
md.renderer.rules.image = (tokens, idx) => md.utils.escapeHtml(tokens[idx]!.content);

/** The hidden label (components/Prose.tsx) that names every table's scrolling box, in the page's language. */
export const TABLE_LABEL_ID = 'table-label';

// Tables scroll sideways on phones instead of breaking the layout; the box takes focus, so a keyboard scrolls it too.
md.renderer.rules.table_open = () => `<div class="table-scroll" tabindex="0" role="group" aria-labelledby="${TABLE_LABEL_ID}"><table>\n`;
md.renderer.rules.table_close = () => '</table></div>\n';

/**
 * Starts every id a heading of an article gets. The page around the article
 * has ids of its own (main, announcer, site-header, related-heading, …): a
 * heading "## Announcer" must not take the screen-reader region's id, so ids
 * from content live in their own space, and no id of felt's own markup starts
 * with this (tests/audit/markup.test.ts gives an article a heading for every
 * id a page has and checks no page then holds one twice).
 */
export const HEADING_ID_PREFIX = 'section-';

function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');
}

export function renderMarkdown(source: string): RenderedMarkdown {
  const env = {};
  const tokens = md.parse(source, env);
  const toc: TocEntry[] = [];
  const used = new Set<string>();
  // The next number to try for an id already taken: N headings of one text cost N tries, not N²/2 (30,000 "## a"
  // lines, a 150 KB article, took a build 92 s when every heading counted up from 2).
  const nextNumber = new Map<string, number>();
  let headings = 0;
  let firstParagraph = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'heading_open') {
      const text = inlineText(tokens[i + 1]);
      headings++;
      // A heading with no Latin letters or digits (Russian, Korean) is known by its place.
      const base = `${HEADING_ID_PREFIX}${slugify(text) || headings}`;
      // Numbered until free: "Odds" twice and "Odds 2" once are three ids, not two.
      let id = base;
      if (used.has(id)) {
        let n = nextNumber.get(base) ?? 2;
        while (used.has(`${base}-${n}`)) n++;
        id = `${base}-${n}`;
        nextNumber.set(base, n + 1);
      }
      used.add(id);
      token.attrSet('id', id);
      if (token.tag === 'h2' || token.tag === 'h3') toc.push({ id, text, level: token.tag === 'h2' ? 2 : 3 });
      // A single h1 belongs to the page title; demote any in the body.
      if (token.tag === 'h1') {
        token.tag = 'h2';
        // Its close follows its inline content (not a copy of the rest of the tokens for each h1: quadratic).
        let close = i + 1;
        while (close < tokens.length && tokens[close]!.type !== 'heading_close') close++;
        if (close < tokens.length) tokens[close]!.tag = 'h2';
      }
    } else if (!firstParagraph && token.type === 'paragraph_open') {
      firstParagraph = inlineText(tokens[i + 1]);
    }
  }
  return {
    html: md.renderer.render(tokens, md.options, env),
    toc,
    // Counted when asked: an article page takes its count from the loader, which counted the same body.
    get words() {
      return countWords(source);
    },
    firstParagraph,
  };
}

/** Markdown rendered inline (no wrapping paragraph), for short fields. */
export function renderInline(source: string): string {
  return md.renderInline(source);
}

/** Minutes to read at 220 words a minute, never less than one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 220));
}
