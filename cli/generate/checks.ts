/**
 * The checks an answer passes before it is kept: the schema, the slug
 * shape, the language, the Turkish suffix rule, the length, the structure
 * (from the remark-parse syntax tree), a slug unique in content/ and the
 * bucket, no near-duplicate of an existing title, and finally the site's own
 * article parser. Every failing check gives a reason the model can act on.
 */
import { franc } from 'franc-min';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { formatIssues } from '../../site/content/schemas.ts';
import { SLUG_PATTERN } from '../../shared/names.ts';
import { countWords } from '../../shared/words.ts';
import { answerSchema, articleFile, type Answer, type ArticleMeta } from './answer.ts';
import type { Registry } from './registry.ts';
import type { Slot } from './plan.ts';
import type { LocaleRules } from './rules.ts';

export type CheckResult = { ok: true; answer: Answer; file: string } | { ok: false; reason: string };

export interface MdNode {
  type: string;
  value?: string;
  url?: string;
  depth?: number;
  children?: MdNode[];
}

const parser = unified().use(remarkParse);
const BAD_PROTOCOL = /^\s*(javascript|vbscript|data|file):/i;

export function checkAnswer(raw: string, slot: Slot, meta: ArticleMeta, rules: LocaleRules, registry: Registry): CheckResult {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'the answer is not valid JSON; answer with one JSON object following the schema' };
  }
  const parsed = answerSchema.safeParse(data);
  if (!parsed.success)
    return {
      ok: false,
      reason: formatIssues(parsed.error)
        .map((i) => `${i.field} ${i.message}`)
        .join('; '),
    };
  const answer = parsed.data;
  // The body is parsed once; the language, length and structure checks share the tree.
  const nodes = flatten(parser.parse(answer.body) as MdNode);
  const text = textOf(nodes);
  const reasons = [
    ...checkSlug(answer, registry),
    ...checkLanguage(answer, text, rules),
    ...checkSuffixes(answer, rules),
    ...checkBody(nodes, answer.body, rules),
    ...checkTitle(answer, registry),
  ];
  if (reasons.length) return { ok: false, reason: reasons.join('; ') };
  const file = articleFile(answer, slot, meta);
  const { problems } = parseArticle(file, `${answer.slug}.md`, meta.locale);
  if (problems.length) return { ok: false, reason: problems.map((p) => p.message).join('; ') };
  return { ok: true, answer, file };
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

/** A few thousand characters identify a language as well as the whole article, at a fraction of the cost. */
const LANGUAGE_SAMPLE = 3000;

export function checkLanguage(answer: Answer, bodyText: string, rules: LocaleRules): string[] {
  const text = `${answer.title}. ${answer.description}. ${bodyText}`.slice(0, LANGUAGE_SAMPLE);
  const found = franc(text, { minLength: 20 });
  return found === rules.languageCode ? [] : [`the text is not in ${rules.languageName} (it reads as "${found}")`];
}

export function checkSuffixes(answer: Answer, rules: LocaleRules): string[] {
  if (!rules.forbiddenSuffixes.length) return [];
  const text = `${answer.title} ${answer.description} ${answer.subsubcategories.join(' ')} ${answer.body}`;
  const pattern = new RegExp(`[\\p{L}]+(?:${rules.forbiddenSuffixes.join('|')})(?![\\p{L}])`, 'giu');
  const words = [...new Set(text.match(pattern) ?? [])];
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
  if (nodes.some((n) => (n.type === 'link' || n.type === 'definition') && BAD_PROTOCOL.test(n.url ?? '')))
    reasons.push('links must not use javascript:, vbscript:, data: or file: addresses');
  return reasons;
}

function flatten(node: MdNode): MdNode[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}

function textOf(nodes: MdNode[]): string {
  return nodes
    .filter((n) => n.type === 'text' || n.type === 'inlineCode')
    .map((n) => n.value ?? '')
    .join(' ');
}
