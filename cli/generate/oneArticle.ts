/**
 * What regenerating (replace.ts) and translating (translate.ts) one existing
 * article share: finding it (the dev bucket's version first, else
 * content/'s), reading what it is (locale, category, subcategory, author,
 * date, translationKey), asking the model with the run's checks and re-asks,
 * and the frontmatter fields a generated file adds (translationKey, updated).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import { articleFile, PROMPTS_DIR } from '../../shared/paths.ts';
import { CONTENT_LOCALES, type CategoryNode, type ContentLocale } from '../../shared/types.ts';
import { splitFrontmatter } from '../../site/content/frontmatter.ts';
import { parseArticle } from '../../site/content/parseArticle.ts';
import { OTHER, findNode } from '../../site/model/categoryIndex.ts';
import { articleObjectName } from '../storage/index.ts';
import type { Bucket, ObjectInfo } from '../storage/types.ts';
import type { Answer, ArticleMeta } from './answer.ts';
import { checkAnswer, completionProblem, DEFAULT_GATE, type GateSettings } from './checks.ts';
import type { Llm } from './llm.ts';
import type { Slot, Target } from './plan.ts';
import { fill, type ChatMessage, type PromptBook } from './prompts.ts';
import { Registry, type Nearest } from './registry.ts';
import type { LocaleRules } from './rules.ts';

export interface ExistingArticle {
  locale: ContentLocale;
  slug: string;
  text: Buffer;
  /** The dev bucket's object, when the text came from there. */
  devObject?: ObjectInfo;
  /** Where the text came from, for messages. */
  from: string;
  title: string;
  description: string;
  author: string;
  date: string;
  translationKey?: string;
  target: Target;
  body: string;
}

/** The article `slug`: the dev bucket's version if it has one, else content/'s; in `locale`, or the one locale that has it. */
export async function findArticle(contentDir: string, categories: CategoryNode[], dev: Bucket, slug: string, locale?: ContentLocale): Promise<ExistingArticle> {
  const found: ExistingArticle[] = [];
  const devExists = await dev.exists();
  for (const candidate of locale ? [locale] : CONTENT_LOCALES) {
    const name = articleObjectName(candidate, slug);
    const info = devExists ? await dev.stat(name) : undefined;
    if (info) {
      // Larger than an article can be: refused (OBJECT_TOO_LARGE) with the object's name, the limit and the fix.
      const text = await dev.read(name, { maxBytes: LIMITS.articleBytes });
      found.push(describe(text, candidate, slug, `${dev.location}/${name}`, categories, info));
      continue;
    }
    const file = articleFile(contentDir, candidate, slug);
    const text = await readFile(file).catch(() => undefined);
    if (text) found.push(describe(text, candidate, slug, file, categories));
  }
  if (!found.length)
    throw new FeltError(
      'ARTICLE_NOT_FOUND',
      `no article "${slug}" in ${dev.location} or content/articles (${(locale ? [locale] : CONTENT_LOCALES).join(', ')})`,
    );
  if (found.length > 1)
    throw new FeltError('BAD_OPTION', `"${slug}" exists in ${found.map((f) => f.locale).join(' and ')}`, { hint: 'add --locale to say which one' });
  return found[0]!;
}

function describe(text: Buffer, locale: ContentLocale, slug: string, from: string, categories: CategoryNode[], devObject?: ObjectInfo): ExistingArticle {
  const source = text.toString('utf8');
  const { article, problems } = parseArticle(source, `${slug}.md`, locale);
  if (!article)
    throw new FeltError('CONTENT_INVALID', `${from} is not a valid article: ${problems.map((p) => p.message).join('; ')}`, {
      hint: 'fix it, or pull and check it first',
    });
  const [entity] = article.entities;
  const category = (entity && findNode(categories, entity.category)) ?? categories[0]!;
  const wanted = entity?.subcategories?.[0]?.subcategory;
  const subcategory = (wanted && findNode(category.children, wanted)) || category.children.find((c) => c.key === OTHER) || category.children[0]!;
  return {
    locale,
    slug,
    text,
    devObject,
    from,
    title: article.title,
    description: article.description,
    author: article.author,
    date: article.date,
    translationKey: article.translationKey,
    target: { category, subcategory },
    body: splitFrontmatter(source).body.trim(),
  };
}

/** A registry that lets the article being replaced keep its own slug and resemble its own old title. */
export class ReplacingRegistry extends Registry {
  constructor(
    private readonly inner: Registry,
    private readonly slug: string,
    private readonly oldTitle: string,
  ) {
    super(inner.language);
  }
  override add(slug: string, title?: string, category?: string, more?: Parameters<Registry['add']>[3]): void {
    this.inner.add(slug, title, category, more);
  }
  /** The article's own old text is what it replaces, not a duplicate to refuse. */
  override nearest(signature: Parameters<Registry['nearest']>[0]): Nearest | undefined {
    return this.inner.nearest(signature, this.slug);
  }
  override hasSlug(slug: string): boolean {
    return slug !== this.slug && this.inner.hasSlug(slug);
  }
  override similarTitle(title: string, threshold?: number): string | undefined {
    const twin = this.inner.similarTitle(title, threshold);
    return twin === this.oldTitle ? undefined : twin;
  }
  override titlesIn(category: string): string[] {
    return this.inner.titlesIn(category);
  }
}

export interface AskRequest {
  llm: Llm;
  messages: ChatMessage[];
  prompts: PromptBook;
  slot: Slot;
  meta: ArticleMeta;
  rules: LocaleRules;
  registry: Registry;
  attempts: number;
  /** The slug the answer must have, whatever the model chose. */
  slug?: string;
  /** The quality gate's settings (near-duplicate threshold); the defaults when not given. */
  gate?: GateSettings;
  signal?: AbortSignal;
  onReask?: (reason: string) => void;
}

export type Asked = { ok: true; answer: Answer; file: string; attempts: number } | { ok: false; reason: string; attempts: number };

/** Asks, checks (the run's own checks), and asks again with the reason, `attempts` times at most. */
export async function askForArticle(request: AskRequest): Promise<Asked> {
  const messages = [...request.messages];
  let reason = 'no answer';
  for (let attempt = 1; attempt <= request.attempts; attempt++) {
    request.signal?.throwIfAborted();
    const completion = await request.llm.complete(messages, request.signal);
    const raw = completion.content;
    // A refusal or a cut answer is named as such, as in a nightly run (cli/generate/worker.ts).
    const stopped = completionProblem(completion, request.rules);
    const result = stopped
      ? ({ ok: false, reason: stopped } as const)
      : checkAnswer(
          request.slug ? withSlug(raw, request.slug) : raw,
          request.slot,
          request.meta,
          request.rules,
          request.registry,
          request.gate ?? DEFAULT_GATE,
        );
    if (result.ok) return { ok: true, answer: result.answer, file: result.file, attempts: attempt };
    reason = result.reason;
    if (attempt < request.attempts) {
      request.onReask?.(reason);
      messages.push({ role: 'assistant', content: raw }, { role: 'user', content: await request.prompts.reask(reason) });
    }
  }
  return { ok: false, reason, attempts: request.attempts };
}

/** The answer with its slug set: the address of an article being replaced does not change. */
function withSlug(raw: string, slug: string): string {
  try {
    const data = JSON.parse(raw) as unknown;
    if (data && typeof data === 'object' && !Array.isArray(data)) return JSON.stringify({ ...data, slug });
  } catch {
    // Not JSON: checkAnswer says so, in its words.
  }
  return raw;
}

/** Adds translationKey and updated after the locale line of a generated file (answer.ts writes neither). */
export function withFields(file: string, fields: { translationKey?: string; updated?: string }): string {
  const extra = [fields.translationKey && `translationKey: ${fields.translationKey}`, fields.updated && `updated: ${fields.updated}`]
    .filter(Boolean)
    .join('\n');
  return extra ? file.replace(/^(locale: .*)$/m, `$1\n${extra}`) : file;
}

/** A template of prompts/ (replace.md, translate.md) with its placeholders filled. */
export async function promptTemplate(name: string, values: Record<string, string>, dir = PROMPTS_DIR): Promise<string> {
  const file = path.join(dir, name);
  const text = await readFile(file, 'utf8').catch(() => {
    throw new FeltError('PROMPT_MISSING', 'prompt template is missing', { file });
  });
  return fill(text, values);
}

/** The file as it will be stored, fields added, read by the site's own parser once more. */
export function checkFinalFile(file: string, slug: string, locale: ContentLocale): void {
  const errors = parseArticle(file, `${slug}.md`, locale).problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new FeltError('INCOMPLETE', `${locale}/${slug}: the new text would not load: ${errors.map((p) => p.message).join('; ')}`);
}
