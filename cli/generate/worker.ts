/**
 * Produces one article for one slot: ask, check, ask again with the reason
 * (a bounded number of times), and store the passing article in the dev
 * bucket at once, with a precondition so an existing object is never
 * overwritten. Used by the direct run and by batch collection.
 */
import { createHash } from 'node:crypto';
import type { Author, ContentLocale, ImageSettings } from '../../shared/types.ts';
import { storePicture } from './images.ts';
import { ARTICLE_CONTENT_TYPE, articleObjectName } from '../storage/index.ts';
import { isPreconditionFailed } from '../storage/errors.ts';
import type { Bucket } from '../storage/types.ts';
import type { ArticleMeta } from './answer.ts';
import { checkAnswer } from './checks.ts';
import { META } from './existing.ts';
import type { Llm } from './llm.ts';
import type { Plan, Slot } from './plan.ts';
import type { ChatMessage, PromptBook } from './prompts.ts';
import type { Registry } from './registry.ts';
import type { LocaleRules } from './rules.ts';

export interface WorkerContext {
  plan: Plan;
  rules: LocaleRules;
  registry: Registry;
  prompts: PromptBook;
  siteTitle: string;
  authors: Author[];
  llm: Llm;
  bucket: Bucket;
  /** Answers asked per slot, the first included. */
  attempts: number;
  signal?: AbortSignal;
  onReask?: (slot: Slot, reason: string) => void;
  /** generation.images: a cover picture for each stored article (images.ts), and where its outcome is told. */
  pictures?: { settings: ImageSettings; note: (line: string) => void };
}

export type Outcome =
  { slot: number; status: 'stored'; slug: string; object: string; attempts: number } | { slot: number; status: 'failed'; reason: string; attempts: number };

export async function slotMessages(slot: Slot, ctx: Pick<WorkerContext, 'plan' | 'rules' | 'registry' | 'prompts' | 'siteTitle'>): Promise<ChatMessage[]> {
  return ctx.prompts.messages(slot, {
    siteTitle: ctx.siteTitle,
    locale: ctx.plan.locale,
    rules: ctx.rules,
    slotTotal: ctx.plan.slots.length,
    existingTitles: (category) => ctx.registry.titlesIn(category),
  });
}

/** The author of a slot: spread over the authors, the same on every rerun. */
export function authorFor(runId: string, slot: number, authors: Author[]): string {
  const hash = createHash('sha256').update(`${runId}:${slot}`).digest().readUInt32BE(0);
  return authors[hash % authors.length]!.name;
}

export async function produce(slot: Slot, ctx: WorkerContext, firstAnswer?: string): Promise<Outcome> {
  const messages = await slotMessages(slot, ctx);
  const meta: ArticleMeta = { author: authorFor(ctx.plan.runId, slot.index, ctx.authors), date: ctx.plan.date, locale: ctx.plan.locale as ContentLocale };
  let reason = 'no answer';
  for (let attempt = 1; attempt <= ctx.attempts; attempt++) {
    ctx.signal?.throwIfAborted();
    const raw = attempt === 1 && firstAnswer !== undefined ? firstAnswer : await ctx.llm.complete(messages, ctx.signal);
    const result = checkAnswer(raw, slot, meta, ctx.rules, ctx.registry);
    if (result.ok) {
      // Reserved before the first await, so a concurrent answer cannot take the same slug.
      ctx.registry.add(result.answer.slug, result.answer.title, slot.target.category.key);
      const object = articleObjectName(ctx.plan.locale, result.answer.slug);
      try {
        await ctx.bucket.write(object, Buffer.from(result.file), {
          contentType: ARTICLE_CONTENT_TYPE,
          ifGenerationMatch: 0,
          metadata: {
            [META.run]: ctx.plan.runId,
            [META.slot]: String(slot.index),
            [META.title]: result.answer.title,
            [META.category]: slot.target.category.key,
            [META.model]: ctx.llm.model,
          },
        });
        if (ctx.pictures) {
          const { slug, title } = result.answer;
          const request = {
            llm: ctx.llm,
            bucket: ctx.bucket,
            settings: ctx.pictures.settings,
            locale: ctx.plan.locale,
            slug,
            title,
            category: slot.target.category.key,
          };
          ctx.pictures.note(await storePicture({ ...request, signal: ctx.signal }));
        }
        return { slot: slot.index, status: 'stored', slug: result.answer.slug, object, attempts: attempt };
      } catch (error) {
        if (!isPreconditionFailed(error)) throw error;
        reason = `slug "${result.answer.slug}" is already taken in the bucket; choose another title and slug`;
      }
    } else {
      reason = result.reason;
    }
    if (attempt < ctx.attempts) {
      ctx.onReask?.(slot, reason);
      messages.push({ role: 'assistant', content: raw }, { role: 'user', content: await ctx.prompts.reask(reason) });
    }
  }
  return { slot: slot.index, status: 'failed', reason, attempts: ctx.attempts };
}
