/**
 * The LLM adapter: chat completions with a JSON-schema answer through the
 * openai SDK, for any OpenAI-compatible endpoint (OPENAI_BASE_URL,
 * OPENAI_API_KEY). Transport failures (429, 408, 409, 5xx, timeouts, dropped
 * connections) are retried by the SDK itself, with exponential backoff and
 * jitter that honours Retry-After and retry-after-ms; each attempt has a
 * timeout, which covers reading the whole answer, not only its headers; an
 * answer cut off after its headers came is not retried. A refused connection
 * is not retried either: nothing listens at the endpoint, and the call ends
 * at once with LLM_UNREACHABLE. This module counts those retries for the
 * run's report, names the final failure, and counts tokens for the run's
 * cost. An answer that arrives but fails felt's checks is not a transport
 * failure: worker.ts asks again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { FeltError } from '../../shared/errors.ts';
import { LIMIT_HINT, LIMITS, formatBytes } from '../../shared/limits.ts';
import { redactSecrets } from '../secrets.ts';
import { ANSWER_JSON_SCHEMA } from './answer.ts';
import { Budget, type BudgetOptions } from './budget.ts';
import type { ChatMessage } from './prompts.ts';

export interface LlmOptions {
  baseURL?: string;
  apiKey?: string;
  model: string;
  /** Per attempt, in milliseconds (--timeout). */
  timeoutMs?: number;
  /** Retries of one request after 429, 5xx, a timeout or a dropped connection. */
  maxRetries?: number;
  /** Told as each retry starts: the failure that caused it, its number (1 for the first) and the most there will be. */
  onRetry?: (reason: string, retry: number, maxRetries: number) => void;
  /** A spending cap (--max-cost): a call that could pass it is not made. */
  budget?: BudgetOptions;
}

export interface Usage {
  /** Answers received (each is billed). */
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the tokens above, those answered through the Batch API, billed at BATCH_DISCOUNT. */
  batchPromptTokens: number;
  batchCompletionTokens: number;
  /** Chat attempts that got no answer: an HTTP error, a timeout, a dropped connection, an answer cut off, no connection at all. */
  failedRequests: number;
  /**
   * Of failedRequests, the attempts that never reached the endpoint (connection refused, no such
   * host, a certificate refused): nothing was sent, so nothing of them is counted in the cost.
   */
  unconnectedRequests: number;
  /**
   * Prompt tokens of the attempts that timed out or dropped after the request was sent (an answer cut off too): the
   * provider may have read (and billed) the prompt, and no usage came back to say so. Estimated
   * from the request's size, so a night through a slow provider is not reported as free.
   */
  estimatedPromptTokens: number;
  /**
   * Answers whose usage was missing or not a count (a negative number, a string): the provider billed them all the
   * same. Their tokens are estimated from the request's and the answer's sizes (estimatedPromptTokens,
   * estimatedCompletionTokens) and counted at the full price, so that --max-cost holds whatever an endpoint says.
   */
  unreportedRequests: number;
  estimatedCompletionTokens: number;
  retries: number;
}

export function emptyUsage(): Usage {
  return {
    requests: 0,
    promptTokens: 0,
    completionTokens: 0,
    batchPromptTokens: 0,
    batchCompletionTokens: 0,
    failedRequests: 0,
    unconnectedRequests: 0,
    estimatedPromptTokens: 0,
    unreportedRequests: 0,
    estimatedCompletionTokens: 0,
    retries: 0,
  };
}

/** A token count as an endpoint reported it, if it is one (a whole number, at least 0); undefined otherwise. */
function tokenCount(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/** What the Batch API charges of the direct price (OpenAI: half). */
export const BATCH_DISCOUNT = 0.5;

/** Roughly how many characters a token is for the languages felt writes; low, so estimates err on the expensive side. */
export const CHARS_PER_TOKEN = 3;

/** One answer: its text, and why the model stopped (a refusal and a cut-off are named, not parsed as JSON). */
export interface Completion {
  content: string;
  /** "stop", "length" (cut at the output limit), "content_filter", … as the provider reports it. */
  finishReason: string | null;
  /** The model's refusal message, when it declined (structured outputs report it apart from content). */
  refusal: string | null;
}

export function llmEnv(env: NodeJS.ProcessEnv = process.env): { baseURL?: string; apiKey?: string } {
  return { baseURL: env.OPENAI_BASE_URL || undefined, apiKey: env.OPENAI_API_KEY || undefined };
}

/** What the attempts of one request have seen so far; the SDK makes the attempts. */
interface Attempts {
  made: number;
  lastFailure: string;
  onRetry(reason: string, retry: number): void;
  /** An attempt that got no answer; `sentChars` is the size of the request when it may have been read, `unconnected` when it cannot have been. */
  onFailure(sentChars: number, unconnected?: boolean): void;
  /** Told when the endpoint refused the connection: ends the request without the SDK's retries. */
  onRefused(): void;
}

/** The request whose attempts the SDK is making, across its awaits and retry waits. */
const currentRequest = new AsyncLocalStorage<Attempts>();

/**
 * What fetch (undici) did with one attempt: whether it made a request of it at all (`created`),
 * and whether any of that request was written to a connected socket (`sent`). Told by undici's
 * diagnostics channels, which name the request; the attempt that made it is found through the
 * async context its fetch was called in.
 */
interface Wire {
  created: boolean;
  sent: boolean;
}
const currentWire = new AsyncLocalStorage<Wire>();
const wireOf = new WeakMap<object, Wire>();
subscribe('undici:request:create', (message) => {
  const wire = currentWire.getStore();
  const { request } = message as { request: object };
  if (!wire) return;
  wire.created = true;
  wireOf.set(request, wire);
});
// Published as the request's head is handed to a connected socket: from here the provider may read it.
subscribe('undici:client:sendHeaders', (message) => {
  const wire = wireOf.get((message as { request: object }).request);
  if (wire) wire.sent = true;
});

/**
 * The SDK's client, changed only in how one attempt is sent (never in when or
 * how often): the SDK adds an abort listener to the caller's signal on every
 * attempt and never removes it (openai/openai-node#1811), so the 11th retry
 * on one run's signal printed MaxListenersExceededWarning. Here the listener
 * lives as long as its attempt, the answer's body included. The SDK's own
 * timeout ends when the headers come; here the attempt's timeout runs until
 * the whole body is read, so an endpoint that stalls mid-answer is given up
 * after --timeout, and Ctrl-C stops the read. Each attempt is also told to the
 * request's Attempts, which is how felt sees the SDK's retries.
 */
class FeltOpenAI extends OpenAI {
  override async fetchWithTimeout(...[url, init, ms, controller]: Parameters<OpenAI['fetchWithTimeout']>): ReturnType<OpenAI['fetchWithTimeout']> {
    const attempts = currentRequest.getStore();
    if (attempts && attempts.made++ > 0) attempts.onRetry(attempts.lastFailure, attempts.made - 1);
    const { signal, ...rest } = init ?? {};
    const abort = () => controller.abort();
    // The attempt is done when its body has been read, has failed or was cancelled (or when no answer came).
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      done();
    }, ms);
    // Not what keeps felt running: an answer still being read holds its socket, which does.
    timer.unref();
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    const sentChars = typeof rest.body === 'string' ? rest.body.length : 0;
    const wire: Wire = { created: false, sent: false };
    let response: Response;
    try {
      response = await currentWire.run(wire, () => super.fetchWithTimeout(url, rest, ms, controller));
    } catch (error) {
      done();
      // The SDK aborts the attempt's controller when the attempt's timeout passes: the request may
      // have been sent by then, unless undici says none of it reached a socket. A connection that
      // was never made sent nothing, and costs nothing.
      if (attempts) {
        const stopped = controller.signal.aborted;
        const unconnected = wire.created && !wire.sent ? (neverConnected(error) ?? 'nothing sent') : stopped ? undefined : neverConnected(error);
        const timeout = stopped && !signal?.aborted;
        attempts.lastFailure = timeout
          ? `request timed out${unconnected ? ' before it connected' : ''}`
          : unconnected
            ? `no connection: ${unconnected}`
            : 'connection failed';
        if (unconnected) attempts.onFailure(0, true);
        else attempts.onFailure(sentChars);
        if (unconnected === 'ECONNREFUSED') attempts.onRefused();
      }
      throw error;
    }
    if (attempts && !response.ok) {
      attempts.lastFailure = `HTTP ${response.status}`;
      attempts.onFailure(0);
    }
    // A chat answer is read no further than its limit; the images API's (a picture in base64) and a batch's
    // results file are other reads, with limits of their own.
    const maxBytes = new URL(url instanceof Request ? url.url : String(url)).pathname.endsWith('/chat/completions') ? LIMITS.answerBytes : undefined;
    const answer = untilBodyEnds(response, done, maxBytes);
    if (attempts && response.ok) {
      // The SDK reads the body after this returns, and does not retry when that fails: an answer
      // cut off there was asked for all the same, and may have been billed.
      watchBody(answer, (error) => {
        attempts.onFailure(sentChars);
        if (signal?.aborted) return new APIUserAbortError();
        if (timedOut) {
          attempts.lastFailure = 'request timed out';
          return new APIConnectionTimeoutError();
        }
        if (error instanceof AnswerTooLarge) {
          attempts.lastFailure = error.message;
          return error;
        }
        attempts.lastFailure = error instanceof SyntaxError ? 'answer unreadable' : 'answer cut off';
        return new Error(`${attempts.lastFailure} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
      });
    }
    return answer;
  }
}

/** An answer past LIMITS.answerBytes: refused as it arrives, the rest never read. */
class AnswerTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`answer larger than ${formatBytes(maxBytes)}, the limit (${LIMIT_HINT})`);
  }
}

/** Statuses whose answer has no body, which a Response cannot be made with. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with a body that tells `ended` once it has been read to its end, failed (a timeout
 * or Ctrl-C aborts it) or been cancelled, however it is read: json(), text(), or as a stream.
 */
function untilBodyEnds(response: Response, ended: () => void, maxBytes?: number): Response {
  if (!response.body || NULL_BODY.has(response.status)) {
    ended();
    return response;
  }
  const reader = response.body.getReader();
  let read = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          stream.close();
        } else if (maxBytes !== undefined && (read += value.byteLength) > maxBytes) {
          ended();
          stream.error(new AnswerTooLarge(maxBytes));
          void reader.cancel().catch(() => undefined);
        } else stream.enqueue(value);
      } catch (error) {
        ended();
        stream.error(error);
      }
    },
    cancel(reason) {
      ended();
      return reader.cancel(reason);
    },
  });
  const answer = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(answer, 'url', { value: response.url });
  return answer;
}

/**
 * Makes each way of reading `response`'s body tell `lost` of a failure (the connection dropped
 * after the headers, the body is not JSON, the attempt's timeout passed), once, and throw what
 * `lost` returns instead.
 */
function watchBody(response: Response, lost: (error: unknown) => Error): void {
  let told: Error | undefined;
  for (const name of ['json', 'text', 'arrayBuffer', 'blob'] as const) {
    const read = response[name].bind(response) as () => Promise<unknown>;
    Object.defineProperty(response, name, {
      configurable: true,
      value: () =>
        read().catch((error: unknown) => {
          throw (told ??= lost(error));
        }),
    });
  }
}

export class Llm {
  readonly client: OpenAI;
  readonly usage = emptyUsage();
  readonly budget: Budget | undefined;

  constructor(private readonly options: LlmOptions) {
    // OpenAI itself needs a key; a local OpenAI-compatible server (Ollama, llama.cpp's) named by
    // OPENAI_BASE_URL usually needs none, so generation runs offline too (README, "Generating offline").
    if (!options.apiKey && !options.baseURL) {
      throw new FeltError('LLM_NOT_CONFIGURED', 'OPENAI_API_KEY is not set', {
        hint: 'export OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server that needs no key, or use --dry-run',
      });
    }
    this.budget = options.budget && new Budget(options.budget, this.usage);
    // The SDK refuses to start without a key: a server that needs none ignores this placeholder.
    const apiKey = options.apiKey ?? 'no-key';
    this.client = new FeltOpenAI({ baseURL: options.baseURL, apiKey, maxRetries: this.maxRetries, timeout: options.timeoutMs ?? 120_000 });
  }

  get model(): string {
    return this.options.model;
  }

  get maxRetries(): number {
    return this.options.maxRetries ?? 5;
  }

  /** The request body of one article, as sent directly or inside a batch. */
  body(messages: ChatMessage[]) {
    return { model: this.options.model, messages, response_format: { type: 'json_schema' as const, json_schema: ANSWER_JSON_SCHEMA } };
  }

  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<Completion> {
    const body = this.body(messages);
    const reservation = await this.budget?.reserve(JSON.stringify(body).length);
    try {
      const completion = await this.call((callSignal) => this.client.chat.completions.create(body as never, { signal: callSignal }), signal);
      const result = completion as OpenAI.Chat.Completions.ChatCompletion;
      const before = this.budget?.spentUsd() ?? 0;
      const answer = completionOf(result);
      this.count(result.usage, { sentChars: JSON.stringify(body).length, answerChars: answer.content.length });
      this.budget?.observe(this.budget.spentUsd() - before);
      return answer;
    } finally {
      reservation?.release();
    }
  }

  /**
   * One answer's tokens, as its usage says; where it says none or no count (a hostile or broken endpoint: none at
   * all, a negative number that would lower the spending, a string), estimated from `sentChars` and `answerChars`.
   */
  count(usage: unknown, options: { batch?: boolean; sentChars?: number; answerChars?: number } = {}): void {
    this.usage.requests++;
    const reported = usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
    const prompt = tokenCount(reported?.prompt_tokens);
    const completion = tokenCount(reported?.completion_tokens);
    if (prompt === undefined || completion === undefined) this.usage.unreportedRequests++;
    if (prompt === undefined) this.usage.estimatedPromptTokens += Math.ceil((options.sentChars ?? 0) / CHARS_PER_TOKEN);
    else {
      this.usage.promptTokens += prompt;
      if (options.batch) this.usage.batchPromptTokens += prompt;
    }
    if (completion === undefined) this.usage.estimatedCompletionTokens += Math.ceil((options.answerChars ?? 0) / CHARS_PER_TOKEN);
    else {
      this.usage.completionTokens += completion;
      if (options.batch) this.usage.batchCompletionTokens += completion;
    }
  }

  /**
   * One API call through `client` (the SDK retries it): its retries are counted, its final failure
   * becomes a FeltError. `work` makes the call with the signal it is given, which is `signal` (the
   * caller's, Ctrl-C) and also ends the call when the endpoint refuses the connection: the SDK
   * would otherwise try a port nothing listens on five more times, 13 s of backoff.
   */
  async call<T>(work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const refused = new AbortController();
    const attempts: Attempts = {
      made: 0,
      lastFailure: 'a failed attempt',
      onRetry: (reason, retry) => {
        this.usage.retries++;
        this.options.onRetry?.(reason, retry, this.maxRetries);
      },
      onFailure: (sentChars, unconnected) => {
        this.usage.failedRequests++;
        if (unconnected) this.usage.unconnectedRequests++;
        this.usage.estimatedPromptTokens += Math.ceil(sentChars / CHARS_PER_TOKEN);
      },
      onRefused: () => refused.abort(),
    };
    try {
      return await currentRequest.run(attempts, () => work(signal ? AbortSignal.any([signal, refused.signal]) : refused.signal));
    } catch (error) {
      if (refused.signal.aborted && !signal?.aborted) throw unreachable(this.options.baseURL, error);
      if (error instanceof APIUserAbortError) throw error;
      throw toFeltError(error, this.options.baseURL);
    }
  }
}

/** Nothing listens at the endpoint: said once, with what to do, instead of every article's retries. */
function unreachable(baseURL: string | undefined, cause: unknown): FeltError {
  return new FeltError('LLM_UNREACHABLE', `${baseURL ?? 'the OpenAI API'} refused the connection: no model server is listening there`, { cause });
}

/**
 * Errors of the connection itself, before any byte of the request could be written: the address
 * refused or could not be reached, the name did not resolve, the TLS handshake refused the
 * certificate; so is any error of the connect() or getaddrinfo() call. A reset or a close after
 * connecting is not here: the request may have been read.
 */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/**
 * The code of a failed fetch that never connected (fetch's TypeError carries the socket's error as
 * its cause, several addresses tried an AggregateError of them), else undefined: a failure that
 * may have come after the request was sent.
 */
export function neverConnected(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  let code: string | undefined;
  while (queue.length && seen.size < 16) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    // fetch refuses a port browsers block (6000, 9, …) before it connects, with no code.
    if (current instanceof Error && current.message === 'bad port') code ??= 'bad port';
    const { code: found, syscall } = current as { code?: unknown; syscall?: unknown };
    if (typeof found === 'string') {
      // One error of the chain that may have come after connecting outweighs any other.
      if (!NEVER_CONNECTED.has(found) && syscall !== 'connect' && syscall !== 'getaddrinfo') return undefined;
      code ??= found;
    }
    queue.push((current as { cause?: unknown }).cause);
    if (current instanceof AggregateError) queue.push(...(current.errors as unknown[]));
  }
  return code;
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

/** A completion as a chat completion or a batch output line carries it. */
export function completionOf(body: {
  choices?: { message?: { content?: string | null; refusal?: string | null } | null; finish_reason?: string | null }[];
}): Completion {
  const choice = body.choices?.[0];
  return { content: choice?.message?.content ?? '', finishReason: choice?.finish_reason ?? null, refusal: choice?.message?.refusal ?? null };
}

export type Price = { input: number; output: number };

/** USD for `usage` at `price` (per million tokens): batch answers at BATCH_DISCOUNT, estimated tokens (lost attempts, unreported usage) at full price. */
export function costUsd(usage: Usage, price: Price | undefined): number | undefined {
  if (!price) return undefined;
  const input = usage.promptTokens - usage.batchPromptTokens + usage.batchPromptTokens * BATCH_DISCOUNT + usage.estimatedPromptTokens;
  const output = usage.completionTokens - usage.batchCompletionTokens + usage.batchCompletionTokens * BATCH_DISCOUNT + usage.estimatedCompletionTokens;
  return (input * price.input + output * price.output) / 1_000_000;
}
