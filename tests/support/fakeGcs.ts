/**
 * A small Google Cloud Storage JSON API server on 127.0.0.1, enough for the
 * real @google-cloud/storage client: buckets (get, insert, list), uploads
 * (multipart, and resumable with a Location then PUT), object list with
 * prefix, delimiter, startOffset, endOffset, pageToken and a fields mask, alt=media downloads, object get, patch and
 * delete, rewriteTo copies, ifGenerationMatch preconditions, and a bucket's
 * website settings (get and patch). Every
 * request is logged with its kind and the bytes it moved, so tests can assert
 * "nothing uploaded" and benchmarks can count requests and bytes by kind.
 * Listing stays fast at 100,000 objects (a bench's bucket): names are sorted
 * once per change of the name set, a page found by binary search, checksums
 * computed once per stored body.
 */
import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CRC32C } from '@google-cloud/storage';
import { compareNames } from '../../cli/storage/nameRanges.ts';
import { listenOnLoopback } from './loopback.ts';

export type RequestKind =
  | 'bucket.list'
  | 'bucket.get'
  | 'bucket.patch'
  | 'bucket.insert'
  | 'object.list'
  | 'object.get'
  | 'object.download'
  | 'object.patch'
  | 'object.delete'
  | 'object.upload'
  | 'object.upload.start'
  | 'object.rewrite'
  | 'other';

export interface LoggedRequest {
  method: string;
  path: string;
  kind: RequestKind;
  query: Record<string, string>;
  /** When the request arrived (Date.now()), to measure waits between retries. */
  at: number;
  /** Bytes of the request body (an upload's data and metadata). */
  bytesIn: number;
  /** Bytes of the response body (a download's data, a listing's JSON). */
  bytesOut: number;
}

interface StoredObject {
  data: Buffer;
  generation: number;
  metageneration: number;
  contentType: string;
  contentEncoding?: string;
  cacheControl?: string;
  metadata: Record<string, string>;
  updated: string;
  /** The size the listing and object resource declare, when a test wants a large object without holding its bytes. */
  declaredSize?: number;
}

/** A fault to answer instead of the real work: `times` requests of `kind` (for object `name`, when given) get `status`. */
export interface InjectedFault {
  kind: RequestKind;
  status: number;
  times: number;
  name?: string;
  headers?: Record<string, string>;
  /** Sent as it is (text/html) instead of the JSON error: a proxy's or captive portal's page. */
  body?: string;
  /** Only requests with this query parameter (a listing's `pageToken`: its second page on). */
  withQuery?: string;
}

export interface FakeGcs {
  url: string;
  log: LoggedRequest[];
  buckets: Map<string, Map<string, StoredObject>>;
  /** Each bucket's website settings, as bucket.patch left them. */
  websites: Map<string, { mainPageSuffix?: string; notFoundPage?: string }>;
  /** Requests of these kinds are answered 403, as for an account without the permission. */
  forbidden: Set<RequestKind>;
  /** Faults answered before the real work (a 503 with Retry-After, ...); each is used up after `times` requests. */
  faults: InjectedFault[];
  count(kind: RequestKind): number;
  /** Bytes in and out over the logged requests, optionally of one kind. */
  bytes(kind?: RequestKind): { in: number; out: number };
  resetLog(): void;
  /** Awaited before each request is answered (after it is logged): a test holds requests back while it does something else (issue 14's deploy during builds). */
  beforeAnswer?: (request: LoggedRequest) => Promise<void> | void;
  /** Called after every change to an object (written, replaced or deleted), with the bucket as it now is: every state a visitor could see. */
  afterChange?: (bucket: string) => void;
  /** Adds or replaces an object directly (as another writer would). */
  put(
    bucket: string,
    name: string,
    data: string | Buffer,
    meta?: Partial<Pick<StoredObject, 'contentType' | 'cacheControl' | 'metadata' | 'declaredSize'>>,
  ): void;
  close(): Promise<void>;
}

let generationClock = 1_700_000_000_000_000;

export async function startFakeGcs(): Promise<FakeGcs> {
  const buckets = new Map<string, Map<string, StoredObject>>();
  const websites = new Map<string, { mainPageSuffix?: string; notFoundPage?: string }>();
  const forbidden = new Set<RequestKind>();
  const faults: InjectedFault[] = [];
  const uploads = new Map<string, { bucket: string; name: string; meta: Record<string, unknown>; query: Record<string, string>; chunks: Buffer[] }>();
  const log: LoggedRequest[] = [];
  let base = '';
  // Filled in once the server listens; the handlers that call its hooks run only after that.
  const fake = {} as FakeGcs;

  const resource = (bucket: string, name: string, o: StoredObject) => ({
    kind: 'storage#object',
    id: `${bucket}/${name}/${o.generation}`,
    name,
    bucket,
    generation: String(o.generation),
    metageneration: String(o.metageneration),
    contentType: o.contentType,
    ...(o.contentEncoding ? { contentEncoding: o.contentEncoding } : {}),
    cacheControl: o.cacheControl,
    size: String(o.declaredSize ?? o.data.length),
    md5Hash: checksums(o.data).md5,
    crc32c: checksums(o.data).crc32c,
    metadata: o.metadata,
    updated: o.updated,
    timeCreated: o.updated,
  });

  const store = (bucket: string, name: string, data: Buffer, meta: Record<string, unknown>, existing?: StoredObject): StoredObject => {
    const object: StoredObject = {
      data,
      generation: ++generationClock,
      metageneration: 1,
      contentType: typeof meta.contentType === 'string' ? meta.contentType : 'application/octet-stream',
      contentEncoding: typeof meta.contentEncoding === 'string' ? meta.contentEncoding : undefined,
      cacheControl: typeof meta.cacheControl === 'string' ? meta.cacheControl : undefined,
      metadata: { ...((meta.metadata as Record<string, string> | undefined) ?? {}) },
      updated: new Date().toISOString(),
      ...(typeof meta.declaredSize === 'number' ? { declaredSize: meta.declaredSize } : {}),
    };
    void existing;
    buckets.get(bucket)!.set(name, object);
    fake.afterChange?.(bucket);
    return object;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(url.searchParams);
    const raw = url.pathname.split('/').map((p) => decodeURIComponent(p));
    // JSON API paths come with /storage/v1 (apiEndpoint) or without it (STORAGE_EMULATOR_HOST).
    const isUpload = raw[1] === 'upload';
    let parts = raw.slice(1);
    if (isUpload) parts = parts.slice(1);
    if (parts[0] === 'storage' && parts[1] === 'v1') parts = parts.slice(2);
    const body = await buffer(req);
    const send = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
      const text = json === undefined ? undefined : JSON.stringify(json);
      entry.bytesOut = text === undefined ? 0 : Buffer.byteLength(text);
      res.end(text);
    };
    const fail = (status: number, message: string) =>
      send(status, { error: { code: status, message, errors: [{ message, reason: status === 412 ? 'conditionNotMet' : 'notFound' }] } });
    const entry: LoggedRequest = { method: req.method ?? 'GET', path: url.pathname, kind: 'other', query, at: Date.now(), bytesIn: body.length, bytesOut: 0 };
    log.push(entry);
    await fake.beforeAnswer?.(entry);
    /** Answers an injected fault for this request, if one matches; true when it did. */
    const injected = (name?: string): boolean => {
      const fault = faults.find(
        (f) =>
          f.times > 0 && f.kind === entry.kind && (f.name === undefined || f.name === name) && (f.withQuery === undefined || query[f.withQuery] !== undefined),
      );
      if (!fault) return false;
      fault.times--;
      if (fault.body !== undefined) {
        res.writeHead(fault.status, { 'content-type': 'text/html', ...fault.headers });
        entry.bytesOut = Buffer.byteLength(fault.body);
        res.end(fault.body);
        return true;
      }
      send(
        fault.status,
        { error: { code: fault.status, message: `injected ${fault.status}`, errors: [{ message: `injected ${fault.status}` }] } },
        fault.headers,
      );
      return true;
    };
    const precondition = (bucket: string, name: string): boolean => {
      if (query.ifGenerationMatch === undefined) return true;
      const current = buckets.get(bucket)?.get(name);
      return String(current?.generation ?? 0) === query.ifGenerationMatch;
    };

    // Resumable upload data: PUT to the session URI.
    if (isUpload && req.method === 'PUT' && query.upload_id) {
      entry.kind = 'object.upload';
      const session = uploads.get(query.upload_id);
      if (!session) return fail(404, 'no such upload');
      if (injected(session.name)) return;
      session.chunks.push(body);
      const range = String(req.headers['content-range'] ?? '');
      const total = /\/(\d+)$/.exec(range)?.[1];
      const received = Buffer.concat(session.chunks);
      if (total !== undefined && received.length < Number(total)) {
        return send(308, undefined, received.length ? { range: `bytes=0-${received.length - 1}` } : {});
      }
      if (!buckets.has(session.bucket)) return fail(404, 'no such bucket');
      uploads.delete(query.upload_id);
      const object = store(session.bucket, session.name, received, session.meta);
      return send(200, resource(session.bucket, session.name, object));
    }

    if (isUpload && req.method === 'POST' && parts[0] === 'b' && parts[2] === 'o') {
      const bucket = parts[1]!;
      if (!buckets.has(bucket)) return fail(404, 'no such bucket');
      if (query.uploadType === 'resumable') {
        entry.kind = 'object.upload.start';
        const meta = body.length ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
        meta.contentType ??= req.headers['x-upload-content-type'];
        const name = query.name ?? String(meta.name);
        if (injected(name)) return;
        if (!precondition(bucket, name)) return fail(412, 'Precondition Failed');
        const id = randomBytes(8).toString('hex');
        uploads.set(id, { bucket, name, meta, query, chunks: [] });
        return send(200, {}, { location: `${base}/upload/storage/v1/b/${bucket}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}` });
      }
      entry.kind = 'object.upload';
      const { meta, data } = parseMultipart(String(req.headers['content-type']), body);
      const name = query.name ?? String(meta.name);
      if (injected(name)) return;
      if (!precondition(bucket, name)) return fail(412, 'Precondition Failed');
      const object = store(bucket, name, data, meta);
      return send(200, resource(bucket, name, object));
    }

    if (parts[0] !== 'b') return fail(404, `unknown path ${url.pathname}`);
    if (parts.length === 1) {
      if (req.method === 'GET') {
        entry.kind = 'bucket.list';
        return send(200, { kind: 'storage#buckets', items: [...buckets.keys()].sort().map((name) => ({ kind: 'storage#bucket', id: name, name })) });
      }
      if (req.method === 'POST') {
        entry.kind = 'bucket.insert';
        const name = String((JSON.parse(body.toString('utf8')) as { name: string }).name);
        if (buckets.has(name)) return send(409, { error: { code: 409, message: 'You already own this bucket.' } });
        buckets.set(name, new Map());
        return send(200, { kind: 'storage#bucket', id: name, name });
      }
    }
    const bucketName = parts[1]!;
    const bucket = buckets.get(bucketName);
    const bucketResource = () => ({
      kind: 'storage#bucket',
      id: bucketName,
      name: bucketName,
      ...(websites.has(bucketName) ? { website: websites.get(bucketName) } : {}),
    });
    if (parts.length === 2 && req.method === 'GET') {
      entry.kind = 'bucket.get';
      if (forbidden.has(entry.kind))
        return send(403, { error: { code: 403, message: 'deployer does not have storage.buckets.get access to the Google Cloud Storage bucket.' } });
      return bucket ? send(200, bucketResource()) : fail(404, 'The specified bucket does not exist.');
    }
    if (parts.length === 2 && req.method === 'PATCH') {
      entry.kind = 'bucket.patch';
      if (forbidden.has(entry.kind))
        return send(403, { error: { code: 403, message: 'deployer does not have storage.buckets.update access to the Google Cloud Storage bucket.' } });
      if (!bucket) return fail(404, 'The specified bucket does not exist.');
      const patch = JSON.parse(body.toString('utf8') || '{}') as { website?: { mainPageSuffix?: string; notFoundPage?: string } };
      if (patch.website) websites.set(bucketName, { ...patch.website });
      return send(200, bucketResource());
    }
    if (!bucket) return fail(404, 'The specified bucket does not exist.');
    if (parts.length === 3 && parts[2] === 'o' && req.method === 'GET') {
      entry.kind = 'object.list';
      if (injected()) return;
      const listing = listObjects(bucketName, bucket, query, resource);
      // GCS sends only the fields a `fields` mask names: the bytes a listing moves, and what the client parses.
      return send(200, query.fields ? selectFields(listing, query.fields) : listing);
    }
    const name = parts[3];
    if (parts[2] !== 'o' || name === undefined) return fail(404, `unknown path ${url.pathname}`);
    if (parts[4] === 'rewriteTo' && req.method === 'POST') {
      entry.kind = 'object.rewrite';
      const source = bucket.get(name);
      const targetBucket = parts[6]!;
      const targetName = parts[8]!;
      if (!source) return fail(404, 'No such object.');
      if (!buckets.has(targetBucket)) return fail(404, 'no such bucket');
      if (!precondition(targetBucket, targetName)) return fail(412, 'Precondition Failed');
      const object = store(targetBucket, targetName, source.data, {
        contentType: source.contentType,
        contentEncoding: source.contentEncoding,
        cacheControl: source.cacheControl,
        metadata: source.metadata,
      });
      return send(200, {
        kind: 'storage#rewriteResponse',
        totalBytesRewritten: String(object.data.length),
        objectSize: String(object.data.length),
        done: true,
        resource: resource(targetBucket, targetName, object),
      });
    }
    const object = bucket.get(name);
    if (req.method === 'DELETE') {
      entry.kind = 'object.delete';
      if (injected(name)) return;
      if (!object) return fail(404, 'No such object.');
      if (!precondition(bucketName, name)) return fail(412, 'Precondition Failed');
      bucket.delete(name);
      fake.afterChange?.(bucketName);
      return send(204);
    }
    if (!object) return fail(404, `No such object: ${bucketName}/${name}`);
    if (req.method === 'GET' && query.alt === 'media') {
      entry.kind = 'object.download';
      // As GCS: a gzip-encoded object goes out as stored to a client that
      // accepts gzip, and decompressed ("decompressive transcoding") to one that does not.
      const stored = object.contentEncoding ?? 'identity';
      const sendStored = stored !== 'gzip' || /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(200, {
        'content-type': object.contentType,
        ...(stored === 'gzip' && sendStored ? { 'content-encoding': 'gzip' } : {}),
        'x-goog-hash': `crc32c=${checksums(object.data).crc32c},md5=${checksums(object.data).md5}`,
        'x-goog-stored-content-encoding': stored,
        'x-goog-generation': String(object.generation),
      });
      const sent = sendStored ? object.data : gunzipSync(object.data);
      entry.bytesOut = sent.length;
      return res.end(sent);
    }
    if (req.method === 'GET') {
      entry.kind = 'object.get';
      return send(200, resource(bucketName, name, object));
    }
    if (req.method === 'PATCH') {
      entry.kind = 'object.patch';
      if (injected(name)) return;
      const patch = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
      if (typeof patch.contentType === 'string') object.contentType = patch.contentType;
      if (typeof patch.cacheControl === 'string') object.cacheControl = patch.cacheControl;
      if (patch.metadata && typeof patch.metadata === 'object') Object.assign(object.metadata, patch.metadata);
      object.metageneration++;
      return send(200, resource(bucketName, name, object));
    }
    return fail(405, 'method not supported');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: String(error) } }));
    });
  });
  // Node's HTTP agent keeps an idle connection for the server's Keep-Alive hint less one second: at 1 s (as this was)
  // it kept none, and every request of the client opened a connection of its own (101 for a 98-file deploy). Google's
  // front ends keep them far longer; 5 s (Node's default) lets the client reuse them, as it does against GCS.
  server.keepAliveTimeout = 5000;
  const { port, close } = await listenOnLoopback(server);
  base = `http://127.0.0.1:${port}`;
  return Object.assign(fake, {
    url: base,
    log,
    buckets,
    websites,
    forbidden,
    faults,
    count: (kind) => log.filter((r) => r.kind === kind).length,
    bytes: (kind) =>
      log.filter((r) => kind === undefined || r.kind === kind).reduce((sum, r) => ({ in: sum.in + r.bytesIn, out: sum.out + r.bytesOut }), { in: 0, out: 0 }),
    resetLog: () => void log.splice(0),
    put(bucket, name, data, meta = {}) {
      if (!buckets.has(bucket)) buckets.set(bucket, new Map());
      store(bucket, name, Buffer.from(data), meta);
    },
    close,
  } satisfies FakeGcs);
}

function crc32c(data: Buffer): string {
  const crc = new CRC32C();
  crc.update(data);
  return crc.toString();
}

/** A stored body's checksums, computed once: a listing of 100,000 objects would otherwise hash them all on every page. */
const checksumCache = new WeakMap<Buffer, { md5: string; crc32c: string }>();
function checksums(data: Buffer): { md5: string; crc32c: string } {
  let sums = checksumCache.get(data);
  if (!sums) checksumCache.set(data, (sums = { md5: createHash('md5').update(data).digest('base64'), crc32c: crc32c(data) }));
  return sums;
}

/**
 * A bucket's names in order, sorted again only after the set of names changed. Tests and benches change
 * `buckets` directly (a Map they set, delete from or clear), so each bucket's own set/delete/clear are wrapped
 * to mark its order stale: a listing page then costs a binary search, not a pass over every name.
 */
const nameOrders = new WeakMap<Map<string, StoredObject>, { names: string[]; stale: boolean }>();
function namesInOrder(bucket: Map<string, StoredObject>): string[] {
  let order = nameOrders.get(bucket);
  if (!order) {
    const known = { names: [] as string[], stale: true };
    const { set, delete: remove, clear } = bucket;
    bucket.set = (name, object) => {
      if (!bucket.has(name)) known.stale = true;
      return set.call(bucket, name, object);
    };
    bucket.delete = (name) => {
      const had = remove.call(bucket, name);
      if (had) known.stale = true;
      return had;
    };
    bucket.clear = () => {
      known.stale = true;
      clear.call(bucket);
    };
    nameOrders.set(bucket, (order = known));
  }
  if (order.stale) {
    // GCS's order: by UTF-8 bytes (an emoji after U+FFFF), not by UTF-16 units as sort() would have it.
    order.names = [...bucket.keys()].sort(compareNames);
    order.stale = false;
  }
  return order.names;
}

/** The first index in `from`..end of sorted `names` where `past(name)` holds (it holds for every later name too). */
function firstWhere(names: string[], from: number, past: (name: string) => boolean): number {
  let low = from;
  let high = names.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (past(names[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * One page of a listing, as GCS answers it: items and prefixes (with a delimiter) in name order, counted together
 * against maxResults, each prefix once; the page token names where the next page starts, so objects added or
 * removed between pages neither shift nor repeat what the next page returns.
 */
function listObjects(
  bucketName: string,
  bucket: Map<string, StoredObject>,
  query: Record<string, string>,
  resource: (b: string, n: string, o: StoredObject) => unknown,
) {
  const prefix = query.prefix ?? '';
  const delimiter = query.delimiter;
  const pageSize = Math.min(Number(query.maxResults ?? 1000) || 1000, 1000);
  const names = namesInOrder(bucket);
  // startOffset and endOffset bound the names (from one included, up to the other excluded), as GCS's do.
  const startName = [prefix, query.startOffset ?? '', query.pageToken ? Buffer.from(query.pageToken, 'base64url').toString('utf8') : ''].reduce((a, b) =>
    compareNames(a, b) > 0 ? a : b,
  );
  const end = query.endOffset === undefined ? names.length : firstWhere(names, 0, (name) => compareNames(name, query.endOffset!) >= 0);
  let at = firstWhere(names, 0, (name) => compareNames(name, startName) >= 0);
  const items: string[] = [];
  const prefixes: string[] = [];
  while (at < end && items.length + prefixes.length < pageSize) {
    const name = names[at]!;
    if (!name.startsWith(prefix)) break;
    const cut = delimiter ? name.indexOf(delimiter, prefix.length) : -1;
    if (cut < 0) {
      items.push(name);
      at++;
      continue;
    }
    const common = name.slice(0, cut + delimiter!.length);
    prefixes.push(common);
    at = firstWhere(names, at, (later) => !later.startsWith(common));
  }
  const more = at < end && names[at]!.startsWith(prefix);
  return {
    kind: 'storage#objects',
    items: items.map((n) => resource(bucketName, n, bucket.get(n)!)),
    ...(prefixes.length ? { prefixes } : {}),
    ...(more ? { nextPageToken: Buffer.from(names[at]!).toString('base64url') } : {}),
  };
}

/** What a `fields` mask such as `items(name,md5Hash),nextPageToken` selects: a field, or its sub-fields. */
type FieldSelection = Map<string, FieldSelection | true>;

function parseFields(text: string): FieldSelection {
  let at = 0;
  const group = (): FieldSelection => {
    const selection: FieldSelection = new Map();
    while (at < text.length && text[at] !== ')') {
      const start = at;
      while (at < text.length && !',()'.includes(text[at]!)) at++;
      const name = text.slice(start, at).trim();
      if (text[at] === '(') {
        at++;
        selection.set(name, group());
        at++;
      } else selection.set(name, true);
      if (text[at] === ',') at++;
    }
    return selection;
  };
  return group();
}

/** A partial response, as GCS answers one: only the fields the mask names (lists keep their items, each selected). */
function selectFields(value: unknown, fields: string | FieldSelection): unknown {
  const selection = typeof fields === 'string' ? parseFields(fields) : fields;
  if (Array.isArray(value)) return value.map((item) => selectFields(item, selection));
  if (!value || typeof value !== 'object') return value;
  const picked: Record<string, unknown> = {};
  for (const [field, sub] of selection) {
    const inner = (value as Record<string, unknown>)[field];
    if (inner !== undefined) picked[field] = sub === true ? inner : selectFields(inner, sub);
  }
  return picked;
}

function parseMultipart(contentType: string, body: Buffer): { meta: Record<string, unknown>; data: Buffer } {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`multipart upload without a boundary: ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    parts.push(body.subarray(at + delimiter.length, next));
    at = next;
  }
  const [metaPart, dataPart] = parts.map((part) => {
    const split = part.indexOf('\r\n\r\n');
    let content = part.subarray(split + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    return content;
  });
  return { meta: JSON.parse(metaPart!.toString('utf8')) as Record<string, unknown>, data: dataPart ?? Buffer.alloc(0) };
}
