/**
 * The checks an answer passes before it is kept: how the model stopped (a
 * refusal, a content filter or a cut-off is named as such), the schema, the
 * slug shape, plain text in the title and description, the language of every
 * section, the Turkish suffix rule (in any case, İ/ı included), the length,
 * the structure (from the remark-parse syntax tree), a slug unique in content/
 * and the bucket, no near-duplicate of an existing title or body, and finally
 * the site's own article parser. Every failing check gives a reason the model
 * can act on.
 */
import { franc } from 'franc-min';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { formatIssues } from '../../site/content/schemas.ts';
import { SLUG_PATTERN } from '../../shared/names.ts';
import { countWords } from '../../shared/words.ts';
import { answerSchema, articleFile, type Answer, type ArticleMeta } from './answer.ts';
import { languageTag } from './existing.ts';
import type { Completion } from './llm.ts';
import type { Nearest, Registry } from './registry.ts';
import type { Slot } from './plan.ts';
import type { LocaleRules } from './rules.ts';
import { signatureOf, type Signature } from './similarity.ts';

export type CheckResult = { ok: true; answer: Answer; file: string; signature?: Signature; nearest?: Nearest } | { ok: false; reason: string; slug?: string };

export interface GateSettings {
  /** A body this similar (estimated Jaccard of five-word shingles) to an existing article's is refused. */
  duplicateThreshold: number;
}

/**
 * Measured on the repository's articles (README, "What a night of felt generate does"): two
 * different articles score at most 0.03, a copy with one word in twenty changed 0.5 to 0.65, one
 * in ten 0.25 to 0.4; 0.4 refuses the first kind of copy with a wide margin over real articles.
 */
export const DEFAULT_GATE: GateSettings = { duplicateThreshold: 0.4 };

/** Why an answer cannot be an article before it is read: the model declined or was stopped. */
export function completionProblem(completion: Completion, rules: LocaleRules): string | undefined {
  if (completion.refusal) return `the model refused to write the article ("${completion.refusal.slice(0, 200)}")`;
  if (completion.finishReason === 'content_filter') return "the provider's content filter stopped the answer; write about the topic within its policies";
  if (completion.finishReason === 'length') {
    return `the answer was cut off at the model's output limit (finish_reason "length"); write a shorter article, at most ${rules.maxWords} words`;
  }
  return undefined;
}

export interface MdNode {
  type: string;
  value?: string;
  url?: string;
  depth?: number;
  children?: MdNode[];
}

const parser = unified().use(remarkParse);
const BAD_PROTOCOL = /^(javascript|vbscript|data|file):/i;
/**
 * What a browser does to an address before it reads its scheme (the WHATWG URL parser): leading and trailing C0
 * controls and spaces go, and so do tabs and line breaks anywhere. `java&#x09;script:` is javascript: to a browser.
 */
// eslint-disable-next-line no-control-regex -- control characters are what a browser strips
const schemeOf = (url: string) => url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');

export function checkAnswer(raw: string, slot: Slot, meta: ArticleMeta, rules: LocaleRules, registry: Registry, gate = DEFAULT_GATE): CheckResult {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'the answer is not valid JSON; answer with one JSON object following the schema' };
  }
  const parsed = answerSchema.safeParse(data);
  const slug = typeof (data as { slug?: unknown } | null)?.slug === 'string' ? (data as { slug: string }).slug : undefined;
  if (!parsed.success)
    return {
      ok: false,
      slug,
      reason: formatIssues(parsed.error)
        .map((i) => `${i.field} ${i.message}`)
        .join('; '),
    };
  const answer = parsed.data;
  // The body is parsed once; the language, length and structure checks share the tree.
  const nodes = flatten(parser.parse(answer.body) as MdNode);
  const signature = signatureOf(answer.body, languageTag(meta.locale));
  const nearest = registry.nearest(signature);
  const reasons = [
    ...checkSlug(answer, registry),
    ...checkPlainText(answer),
    ...checkLanguage(answer, nodes, rules),
    ...checkSuffixes(answer, rules, languageTag(meta.locale)),
    ...checkBody(nodes, answer.body, rules),
    ...checkTitle(answer, registry),
    ...checkDuplicateBody(nearest, gate),
  ];
  if (reasons.length) return { ok: false, reason: reasons.join('; '), slug: answer.slug };
  const file = articleFile(answer, slot, meta);
  const errors = parseArticle(file, `${answer.slug}.md`, meta.locale).problems.filter((p) => p.severity === 'error');
  if (errors.length) return { ok: false, reason: errors.map((p) => p.message).join('; '), slug: answer.slug };
  return { ok: true, answer, file, signature, nearest };
}

function checkDuplicateBody(nearest: Nearest | undefined, gate: GateSettings): string[] {
  if (!nearest || nearest.similarity < gate.duplicateThreshold) return [];
  return [
    `the body repeats the existing article "${nearest.slug}" (similarity ${nearest.similarity.toFixed(2)}, the limit is ${gate.duplicateThreshold}); write a new article in your own words`,
  ];
}

/** Tags and character references: the site shows titles and descriptions as text, so markup in them is a model's mistake, not formatting. */
const MARKUP = /<\/?[a-z!?][^>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i;

export function checkPlainText(answer: Answer): string[] {
  const fields: [string, string][] = [
    ['title', answer.title],
    ['description', answer.description],
    ...answer.subsubcategories.map((s, i): [string, string] => [`subsubcategories[${i}]`, s]),
  ];
  return fields.flatMap(([field, value]) => {
    const found = MARKUP.exec(value);
    return found ? [`the ${field} contains HTML ("${found[0]}"); write plain text`] : [];
  });
}

function checkSlug(answer: Answer, registry: Registry): string[] {
  if (!SLUG_PATTERN.test(answer.slug)) return [`slug "${answer.slug}" must be lowercase ASCII words joined by single hyphens`];
  if (registry.hasSlug(answer.slug)) return [`slug "${answer.slug}" is already taken; choose another title and slug`];
  return [];
}

function checkTitle(answer: Answer, registry: Registry): string[] {
  const twin = registry.similarTitle(answer.title);
  return twin ? [`the title is too close to the existing article "${twin}"; choose a different topic`] : [];
}

/**
 * A section shorter than this is not judged alone: a language identifier needs a few sentences,
 * and a short section of names and figures reads as anything. Short sections are judged together.
 */
const MIN_SECTION_CHARS = 200;

/**
 * Every section is identified on its own (the title and description with the introduction), so a
 * text that switches language halfway is refused wherever the switch is.
 */
export function checkLanguage(answer: Answer, nodes: MdNode[], rules: LocaleRules): string[] {
  const sections: { name: string; text: string }[] = [{ name: 'the introduction', text: `${answer.title}. ${answer.description}.` }];
  for (const node of nodes) {
    if (node.type === 'heading' && node.depth === 2) sections.push({ name: `the section "${textOf(flatten(node)).trim()}"`, text: '' });
    if (node.type === 'text' || node.type === 'inlineCode') sections.at(-1)!.text += ` ${node.value ?? ''}`;
  }
  const judged = sections.filter((s) => s.text.trim().length >= MIN_SECTION_CHARS);
  const short = sections.filter((s) => s.text.trim().length < MIN_SECTION_CHARS);
  if (short.length) judged.push({ name: judged.length ? 'the short sections together' : 'the text', text: short.map((s) => s.text).join(' ') });
  const wrong = judged.flatMap((s) => {
    const found = franc(s.text, { minLength: 20 });
    return found === rules.languageCode || found === 'und' ? [] : [`${s.name} is not in ${rules.languageName} (it reads as "${found}")`];
  });
  return wrong.length ? [wrong.slice(0, 4).join('; ')] : [];
}

/**
 * Words ending in a forbidden suffix, in any case: the text and the suffixes are lowercased as the
 * locale does (Turkish İ → i, I → ı) and then ı and i are taken as one letter, so `YAPMAKTADIR`,
 * `gerekmektedİr` and an ASCII `GEREKMEKTEDIR` all end in -tadır / -tedir.
 */
export function checkSuffixes(answer: Answer, rules: LocaleRules, language: string): string[] {
  if (!rules.forbiddenSuffixes.length) return [];
  const fold = (s: string) =>
    s
      .normalize('NFC')
      .toLocaleLowerCase(language)
      .replace(/ı/g, 'i')
      .replace(/\u0307/g, '');
  const suffixes = rules.forbiddenSuffixes.map(fold);
  const text = `${answer.title} ${answer.description} ${answer.subsubcategories.join(' ')} ${answer.body}`.normalize('NFC');
  const found = new Set<string>();
  for (const word of text.match(/[\p{L}\p{M}]+/gu) ?? []) {
    const folded = fold(word);
    if (suffixes.some((suffix) => folded.length > suffix.length && folded.endsWith(suffix))) found.add(word);
  }
  const words = [...found];
  return words.length ? [`words ending in ${rules.forbiddenSuffixes.map((s) => `-${s}`).join(' or ')} are not allowed: ${words.slice(0, 8).join(', ')}`] : [];
}

/** `body` is the answer's markdown: counted as the site counts the article's words, so an accepted article shows the length checked here. */
export function checkBody(nodes: MdNode[], body: string, rules: LocaleRules): string[] {
  const reasons: string[] = [];
  const words = countWords(body);
  if (words < rules.minWords) reasons.push(`the body has ${words} words; write at least ${rules.minWords}`);
  if (words > rules.maxWords) reasons.push(`the body has ${words} words; write at most ${rules.maxWords}`);
  const sections = nodes.filter((n) => n.type === 'heading' && n.depth === 2).length;
  if (sections < rules.minSections) reasons.push(`the body has ${sections} "## " sections; use at least ${rules.minSections}`);
  if (nodes.some((n) => n.type === 'heading' && n.depth === 1)) reasons.push('do not use a level-one "# " heading; the title is shown separately');
  if (nodes.some((n) => n.type === 'html')) reasons.push('raw HTML is not allowed; use Markdown only');
  if (nodes.some((n) => n.type === 'image' || n.type === 'imageReference')) reasons.push('images are not allowed');
  if (nodes.some((n) => (n.type === 'link' || n.type === 'definition') && BAD_PROTOCOL.test(schemeOf(n.url ?? ''))))
    reasons.push('links must not use javascript:, vbscript:, data: or file: addresses');
  return reasons;
}

function flatten(node: MdNode): MdNode[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}

export function textOf(nodes: MdNode[]): string {
  return nodes
    .filter((n) => n.type === 'text' || n.type === 'inlineCode')
    .map((n) => n.value ?? '')
    .join(' ');
}
