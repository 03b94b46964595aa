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
import { FeltError } from '../../shared/errors.ts';
import type { ArticleMeta } from './answer.ts';
import type { CircuitBreaker } from './breaker.ts';
import { checkAnswer, completionProblem, DEFAULT_GATE, type GateSettings } from './checks.ts';
import { META } from './existing.ts';
import type { Completion, Llm } from './llm.ts';
import { encodeSignature } from './similarity.ts';
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
  gate?: GateSettings;
  /** Told of every call's end, to stop a run through an outage. */
  breaker?: CircuitBreaker;
  /** generation.images: a cover picture for each stored article (images.ts), and where its outcome is told. */
  pictures?: { settings: ImageSettings; note: (line: string) => void };
}

/** Where a slot's article belongs, named in its outcome so a report says what was skipped. */
interface SlotPlace {
  slot: number;
  category: string;
  subcategory: string;
  attempts: number;
}

export type Outcome =
  | (SlotPlace & {
      status: 'stored';
      slug: string;
      object: string;
      model: string;
      /** The most similar article of the locale when this one was stored (estimated Jaccard of their bodies), and its slug. */
      similarity: number;
      nearest?: string;
    })
  | (SlotPlace & {
      status: 'failed';
      reason: string;
      /** What failed: the answers (they did not pass the checks), the provider's calls, or anything else (storage, the disk). */
      cause: 'checks' | 'provider' | 'other';
      /** The slug of the last answer, when it had one. */
      slug?: string;
    });

export function placeOf(slot: Slot, attempts: number): SlotPlace {
  return { slot: slot.index, category: slot.target.category.key, subcategory: slot.target.subcategory.key, attempts };
}

/** A call that failed after the SDK's retries: the provider's failure, not the answer's. */
export function isProviderFailure(error: unknown): error is FeltError {
  return error instanceof FeltError && ['LLM_FAILED', 'LLM_DENIED', 'LLM_NOT_FOUND'].includes(error.code);
}

export async function slotMessages(slot: Slot, ctx: Pick<WorkerContext, 'plan' | 'rules' | 'registry' | 'prompts' | 'siteTitle'>): Promise<ChatMessage[]> {
  return ctx.prompts.messages(slot, {
    siteTitle: ctx.siteTitle,
    locale: ctx.plan.locale,
    rules: ctx.rules,
    slotTotal: ctx.plan.slots.length,
    existingTitles: (category, subcategory) => ctx.registry.titlesIn(category, subcategory),
  });
}

/** The author of a slot: spread over the authors, the same on every rerun. */
export function authorFor(runId: string, slot: number, authors: Author[]): string {
  const hash = createHash('sha256').update(`${runId}:${slot}`).digest().readUInt32BE(0);
  return authors[hash % authors.length]!.name;
}

export async function produce(slot: Slot, ctx: WorkerContext, firstAnswer?: Completion): Promise<Outcome> {
  const messages = await slotMessages(slot, ctx);
  const meta: ArticleMeta = { author: authorFor(ctx.plan.runId, slot.index, ctx.authors), date: ctx.plan.date, locale: ctx.plan.locale as ContentLocale };
  let reason = 'no answer';
  let lastSlug: string | undefined;
  for (let attempt = 1; attempt <= ctx.attempts; attempt++) {
    ctx.signal?.throwIfAborted();
    const completion = attempt === 1 && firstAnswer !== undefined ? firstAnswer : await ask(messages, ctx);
    const stopped = completionProblem(completion, ctx.rules);
    const result = stopped
      ? ({ ok: false, reason: stopped } as const)
      : checkAnswer(completion.content, slot, meta, ctx.rules, ctx.registry, ctx.gate ?? DEFAULT_GATE);
    if (result.ok) {
      // Reserved before the first await, so a concurrent answer cannot take the same slug.
      ctx.registry.add(result.answer.slug, result.answer.title, slot.target.category.key, {
        subcategory: slot.target.subcategory.key,
        signature: result.signature,
      });
      const object = articleObjectName(ctx.plan.locale, result.answer.slug);
      const similarity = Number((result.nearest?.similarity ?? 0).toFixed(2));
      try {
        await ctx.bucket.write(object, Buffer.from(result.file), {
          contentType: ARTICLE_CONTENT_TYPE,
          ifGenerationMatch: 0,
          metadata: {
            [META.run]: ctx.plan.runId,
            [META.slot]: String(slot.index),
            [META.title]: result.answer.title,
            [META.category]: slot.target.category.key,
            [META.subcategory]: slot.target.subcategory.key,
            [META.model]: ctx.llm.model,
            [META.attempts]: String(attempt),
            [META.similarity]: String(similarity),
            ...(result.nearest ? { [META.nearest]: result.nearest.slug } : {}),
            ...(result.signature ? { [META.signature]: encodeSignature(result.signature) } : {}),
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
        return {
          ...placeOf(slot, attempt),
          status: 'stored',
          slug: result.answer.slug,
          object,
          model: ctx.llm.model,
          similarity,
          ...(result.nearest ? { nearest: result.nearest.slug } : {}),
        };
      } catch (error) {
        if (!isPreconditionFailed(error)) throw error;
        reason = `slug "${result.answer.slug}" is already taken in the bucket; choose another title and slug`;
        lastSlug = result.answer.slug;
      }
    } else {
      reason = result.reason;
      lastSlug = ('slug' in result ? result.slug : undefined) ?? lastSlug;
    }
    if (attempt < ctx.attempts) {
      ctx.onReask?.(slot, reason);
      messages.push({ role: 'assistant', content: completion.content }, { role: 'user', content: await ctx.prompts.reask(reason) });
    }
  }
  return { ...placeOf(slot, ctx.attempts), status: 'failed', cause: 'checks', reason, ...(lastSlug ? { slug: lastSlug } : {}) };
}

/** One call to the model; the breaker hears how it ended. */
async function ask(messages: ChatMessage[], ctx: WorkerContext): Promise<Completion> {
  try {
    const completion = await ctx.llm.complete(messages, ctx.signal);
    ctx.breaker?.success();
    return completion;
  } catch (error) {
    if (isProviderFailure(error)) ctx.breaker?.failure(error.message);
    throw error;
  }
}
