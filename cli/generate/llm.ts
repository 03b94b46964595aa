/**
 * The LLM adapter: chat completions with a JSON-schema answer through the
 * openai SDK, for any OpenAI-compatible endpoint (OPENAI_BASE_URL,
 * OPENAI_API_KEY). The SDK's own retries are off so this module decides:
 * 429 and 5xx (and timeouts, dropped connections) are retried with
 * exponential backoff that honours Retry-After; each request has a timeout;
 * tokens are counted for the run's cost.
 */
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { FeltError } from '../../shared/errors.ts';
import { redactSecrets } from '../secrets.ts';
import { ANSWER_JSON_SCHEMA } from './answer.ts';
import type { ChatMessage } from './prompts.ts';

export interface LlmOptions {
  baseURL?: string;
  apiKey?: string;
  model: string;
  /** Per request, in milliseconds. */
  timeoutMs?: number;
  /** Retries of one request after 429, 5xx or a timeout. */
  maxRetries?: number;
  /** First backoff delay; doubles on each retry unless Retry-After says otherwise. */
  backoffMs?: number;
  /** The longest wait honoured from Retry-After. */
  maxWaitMs?: number;
  onRetry?: (reason: string, waitMs: number) => void;
}

export interface Usage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  retries: number;
}

export function emptyUsage(): Usage {
  return { requests: 0, promptTokens: 0, completionTokens: 0, retries: 0 };
}

export function llmEnv(env: NodeJS.ProcessEnv = process.env): { baseURL?: string; apiKey?: string } {
  return { baseURL: env.OPENAI_BASE_URL || undefined, apiKey: env.OPENAI_API_KEY || undefined };
}

export class Llm {
  readonly client: OpenAI;
  readonly usage = emptyUsage();

  constructor(private readonly options: LlmOptions) {
    if (!options.apiKey) {
      throw new FeltError('LLM_NOT_CONFIGURED', 'OPENAI_API_KEY is not set', { hint: 'export OPENAI_API_KEY (and OPENAI_BASE_URL for an endpoint other than OpenAI), or use --dry-run' });
    }
    this.client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, maxRetries: 0, timeout: options.timeoutMs ?? 120_000 });
  }

  get model(): string {
    return this.options.model;
  }

  /** The request body of one article, as sent directly or inside a batch. */
  body(messages: ChatMessage[]) {
    return { model: this.options.model, messages, response_format: { type: 'json_schema' as const, json_schema: ANSWER_JSON_SCHEMA } };
  }

  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    const completion = await this.withRetry(() => this.client.chat.completions.create(this.body(messages) as never, { signal }), signal);
    const result = completion as OpenAI.Chat.Completions.ChatCompletion;
    this.count(result.usage);
    return result.choices[0]?.message?.content ?? '';
  }

  count(usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined): void {
    this.usage.requests++;
    this.usage.promptTokens += usage?.prompt_tokens ?? 0;
    this.usage.completionTokens += usage?.completion_tokens ?? 0;
  }

  async withRetry<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const maxRetries = this.options.maxRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (signal?.aborted) throw error;
        const retryable = isRetryable(error);
        if (!retryable || attempt >= maxRetries) throw toFeltError(error, this.options.baseURL);
        const wait = Math.min(retryAfterMs(error) ?? (this.options.backoffMs ?? 1000) * 2 ** attempt, this.options.maxWaitMs ?? 60_000);
        this.usage.retries++;
        this.options.onRetry?.(retryable, wait);
        await sleep(wait, signal);
      }
    }
  }
}

/** A short reason when the error is worth retrying, undefined otherwise. */
function isRetryable(error: unknown): string | undefined {
  if (error instanceof APIConnectionError) return error.message.includes('timed out') ? 'request timed out' : 'connection failed';
  if (error instanceof APIError && error.status !== undefined && (error.status === 429 || error.status === 408 || error.status >= 500)) return `HTTP ${error.status}`;
  return undefined;
}

function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof APIError) || !error.headers) return undefined;
  const headers = error.headers as Headers;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function toFeltError(error: unknown, baseURL: string | undefined): FeltError {
  const endpoint = baseURL ?? 'the OpenAI API';
  const reason = redactSecrets(error instanceof Error ? error.message : String(error));
  if (error instanceof APIError && (error.status === 401 || error.status === 403)) {
    return new FeltError('LLM_DENIED', `${endpoint} refused the API key (HTTP ${error.status})`, { hint: 'check OPENAI_API_KEY', cause: error });
  }
  if (error instanceof APIError && error.status === 404) {
    return new FeltError('LLM_NOT_FOUND', `${endpoint}: ${reason}`, { hint: 'check --model and OPENAI_BASE_URL (it usually ends in /v1)', cause: error });
  }
  return new FeltError('LLM_FAILED', `${endpoint}: ${reason}`, { cause: error });
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function costUsd(usage: Usage, price: { input: number; output: number } | undefined): number | undefined {
  if (!price) return undefined;
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}
