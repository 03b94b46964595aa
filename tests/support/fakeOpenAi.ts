/**
 * An OpenAI-compatible server on 127.0.0.1 for the real `openai` client:
 * chat completions with a json_schema answer (by default a valid article in
 * the language the system prompt asks for, with a fresh title each time),
 * files (upload, content) and batches (create, retrieve). Tests script it
 * with `reply`: a status with headers (429 with Retry-After, 500), a delay,
 * or an answer of their own. The images endpoint (POST /images/generations)
 * answers only once a test sets `imageReply`; until then it is a 404 like any
 * unknown path.
 */
import { buffer } from 'node:stream/consumers';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback.ts';
import { articleAnswer, languageOf } from './articles.ts';

export interface ChatCall {
  n: number;
  body: { model: string; messages: { role: string; content: string }[]; response_format?: unknown };
  language: 'en' | 'ru' | 'tr';
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** The answer's message content (default: a valid article). */
  content?: string;
  delayMs?: number;
  /** The choice's finish_reason (default "stop"): "length" for a cut-off, "content_filter". */
  finishReason?: string;
  /** A refusal message: the answer then has this refusal and no content, as structured outputs report one. */
  refusal?: string;
  /** The answer's usage, as sent (a hostile or broken endpoint's); by default 1000 prompt and 800 completion tokens. */
  usage?: unknown;
}

export interface ImageCall {
  n: number;
  body: { model: string; prompt: string; n?: number; size?: string; quality?: string; response_format?: string };
}

export interface ImageReply {
  status?: number;
  /** The picture's bytes, sent as b64_json. */
  image?: Buffer;
}

export interface FakeOpenAi {
  url: string;
  log: { method: string; path: string; auth: boolean; at: number }[];
  chats: ChatCall[];
  /** Decides the answer of each chat call; undefined means the default article. */
  reply: (call: ChatCall) => Reply | undefined | Promise<Reply | undefined>;
  delayMs: number;
  /** How many retrievals a batch stays in_progress before it completes. */
  batchPolls: number;
  /** Answers POST /images/generations; unset, the path is unknown (404). */
  imageReply?: (call: ImageCall) => ImageReply | Promise<ImageReply>;
  images: ImageCall[];
  close(): Promise<void>;
}

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  content: string;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, { record: Record<string, unknown>; polls: number }>();
  let counter = 0;
  let ids = 0;
  const fake: FakeOpenAi = {
    url: '',
    log: [],
    chats: [],
    reply: () => undefined,
    delayMs: 0,
    batchPolls: 0,
    images: [],
    close: async () => {},
  };

  const chat = async (body: ChatCall['body']): Promise<{ status: number; headers: Record<string, string>; json: unknown }> => {
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const call: ChatCall = { n: ++counter, body, language: languageOf(system) };
    fake.chats.push(call);
    const reply = (await fake.reply(call)) ?? {};
    const delay = reply.delayMs ?? fake.delayMs;
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (reply.status && reply.status !== 200) {
      return {
        status: reply.status,
        headers: reply.headers ?? {},
        json: { error: { message: `fake error ${reply.status}`, type: 'server_error', code: null } },
      };
    }
    const content = reply.refusal !== undefined ? (reply.content ?? null) : (reply.content ?? JSON.stringify(articleAnswer(call.language, call.n)));
    return {
      status: 200,
      headers: reply.headers ?? {},
      json: {
        id: `chatcmpl-${call.n}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content, refusal: reply.refusal ?? null }, finish_reason: reply.finishReason ?? 'stop', logprobs: null },
        ],
        usage: 'usage' in reply ? reply.usage : { prompt_tokens: 1000, completion_tokens: 800, total_tokens: 1800 },
      },
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await buffer(req);
    fake.log.push({ method: req.method ?? 'GET', path: url.pathname, auth: Boolean(req.headers.authorization), at: Date.now() });
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(json));
    };
    const path = url.pathname.replace(/^\/v1/, '');
    if (req.method === 'POST' && path === '/chat/completions') {
      const answer = await chat(JSON.parse(body.toString('utf8')) as ChatCall['body']);
      return send(answer.status, answer.json, answer.headers);
    }
    if (req.method === 'POST' && path === '/images/generations' && fake.imageReply) {
      const call: ImageCall = { n: fake.images.length + 1, body: JSON.parse(body.toString('utf8')) as ImageCall['body'] };
      fake.images.push(call);
      const reply = await fake.imageReply(call);
      if (reply.status && reply.status !== 200)
        return send(reply.status, { error: { message: `fake error ${reply.status}`, type: 'server_error', code: null } });
      return send(200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: (reply.image ?? Buffer.alloc(0)).toString('base64') }] });
    }
    if (req.method === 'POST' && path === '/files') {
      const form = await new Request('http://x/', {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type']) },
        body: new Uint8Array(body),
      }).formData();
      const file = form.get('file') as File;
      const stored: StoredFile = { id: `file-${++ids}`, filename: file.name, purpose: String(form.get('purpose')), content: await file.text() };
      files.set(stored.id, stored);
      return send(200, fileObject(stored));
    }
    const fileContent = /^\/files\/([^/]+)\/content$/.exec(path);
    if (req.method === 'GET' && fileContent) {
      const stored = files.get(fileContent[1]!);
      if (!stored) return send(404, { error: { message: 'no such file' } });
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(stored.content);
    }
    if (req.method === 'POST' && path === '/batches') {
      const request = JSON.parse(body.toString('utf8')) as { input_file_id: string; endpoint: string; completion_window: string; metadata?: unknown };
      const input = files.get(request.input_file_id);
      if (!input) return send(400, { error: { message: 'unknown input file' } });
      const lines = input.content
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { custom_id: string; body: ChatCall['body'] });
      const output: string[] = [];
      for (const line of lines) {
        const answer = await chat(line.body);
        output.push(
          JSON.stringify({
            id: `resp-${line.custom_id}`,
            custom_id: line.custom_id,
            response: { status_code: answer.status, request_id: 'r', body: answer.json },
            error: null,
          }),
        );
      }
      const out: StoredFile = { id: `file-${++ids}`, filename: 'output.jsonl', purpose: 'batch_output', content: `${output.join('\n')}\n` };
      files.set(out.id, out);
      const id = `batch_${++ids}`;
      const record = {
        id,
        object: 'batch',
        endpoint: request.endpoint,
        errors: null,
        input_file_id: input.id,
        completion_window: request.completion_window,
        status: 'completed',
        output_file_id: out.id,
        error_file_id: null,
        created_at: Math.floor(Date.now() / 1000),
        request_counts: { total: lines.length, completed: lines.length, failed: 0 },
        metadata: request.metadata ?? null,
      };
      batches.set(id, { record, polls: fake.batchPolls });
      return send(200, { ...record, status: 'validating', output_file_id: null });
    }
    const batchPath = /^\/batches\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && batchPath) {
      const batch = batches.get(batchPath[1]!);
      if (!batch) return send(404, { error: { message: 'no such batch' } });
      if (batch.polls > 0) {
        batch.polls--;
        return send(200, {
          ...batch.record,
          status: 'in_progress',
          output_file_id: null,
          request_counts: { total: (batch.record.request_counts as { total: number }).total, completed: 0, failed: 0 },
        });
      }
      return send(200, batch.record);
    }
    send(404, { error: { message: `unknown path ${url.pathname}` } });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.close = close;
  return fake;
}

function fileObject(file: StoredFile) {
  return {
    id: file.id,
    object: 'file',
    bytes: Buffer.byteLength(file.content),
    created_at: Math.floor(Date.now() / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
  };
}
