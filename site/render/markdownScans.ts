/**
 * markdown-it's two character-by-character scans, done with the engine's own
 * string search instead, for the same tokens.
 *
 * Every article is split into lines (StateBlock's constructor) and every run
 * of plain text within a paragraph is found (the `text` inline rule) by
 * looking at one character at a time in JavaScript: the two largest self
 * times in a CPU profile of markdown-it rendering the bench's 10,000 articles
 * (issue #13). A regular expression's character class and String.indexOf
 * look through the same characters in V8's compiled code.
 *
 * Both are extension points markdown-it offers for this: an inline rule
 * replaced by name (`ruler.at`), and the block parser's `State` class. The
 * tokens, and so the HTML, are the same as the package's own scans make:
 * tests/site/markdownScans.test.ts parses every markdown file of the
 * repository and thousands of generated documents with both and compares.
 * A markdown-it upgrade that changes either scan fails that test.
 */
import type { Env, MarkdownIt, StateBlock, StateInline, Token } from 'markdown-it';

/**
 * The characters that end a run of text: markdown-it 15's isTerminatorChar
 * (rules_inline/text), each of which may start a rule of its own (emphasis,
 * links, entities, escapes, code, line breaks, …).
 */
const TERMINATOR = /[\n!#$%&*+\-:<=>@[\\\]^_`{}~]/g;

/** The `text` rule: plain text up to the next terminator, or to the end of what is being parsed. */
function text(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  TERMINATOR.lastIndex = start;
  // The search may pass posMax, the end of a link's label, which tokenizes on its own: a `]` stands there, so the
  // search stops at it, and the text ends at posMax.
  const end = TERMINATOR.test(state.src) && TERMINATOR.lastIndex <= state.posMax ? TERMINATOR.lastIndex - 1 : state.posMax;
  if (end === start) return false;
  if (!silent) state.pending += state.src.slice(start, end);
  state.pos = end;
  return true;
}

/**
 * The block parser's state, with its lines found by indexOf. For each line
 * the constructor records where it begins (bMarks) and ends (eMarks, at its
 * newline), how many spaces and tabs lead it (tShift) and the column they
 * reach (sCount, a tab going to the next multiple of four). As in the
 * package, a last line of spaces and tabs alone with no newline after it is
 * not a line.
 */
function lineIndexedState(Base: typeof StateBlock): typeof StateBlock {
  return class LineIndexedState extends Base {
    constructor(src: string, md: MarkdownIt, env: Env, tokens: Token[]) {
      // The base class's scan, over nothing; then the lines of the real source.
      super('', md, env, tokens);
      this.src = src;
      const bMarks: number[] = [];
      const eMarks: number[] = [];
      const tShift: number[] = [];
      const sCount: number[] = [];
      const bsCount: number[] = [];
      const length = src.length;
      let start = 0;
      while (start < length) {
        let pos = start;
        let indent = 0;
        let offset = 0;
        for (; pos < length; pos++) {
          const ch = src.charCodeAt(pos);
          if (ch === 0x20) offset++;
          else if (ch === 0x09) offset += 4 - (offset % 4);
          else break;
          indent++;
        }
        if (pos === length) break;
        const newline = src.indexOf('\n', pos);
        const end = newline === -1 ? length : newline;
        bMarks.push(start);
        eMarks.push(end);
        tShift.push(indent);
        sCount.push(offset);
        bsCount.push(0);
        start = end + 1;
      }
      bMarks.push(length);
      eMarks.push(length);
      tShift.push(0);
      sCount.push(0);
      bsCount.push(0);
      this.bMarks = bMarks;
      this.eMarks = eMarks;
      this.tShift = tShift;
      this.sCount = sCount;
      this.bsCount = bsCount;
      this.lineMax = bMarks.length - 1;
    }
  };
}

/** Gives a markdown-it instance the faster scans; returns it. */
export function withFasterScans(md: MarkdownIt): MarkdownIt {
  md.inline.ruler.at('text', text);
  md.block.State = lineIndexedState(md.block.State);
  return md;
}
