/**
 * Google Cloud Storage through @google-cloud/storage. Credentials and project
 * are found the usual Google way (GOOGLE_APPLICATION_CREDENTIALS, the
 * metadata server, gcloud); STORAGE_EMULATOR_HOST is honoured by the library
 * itself, and an apiEndpoint from settings or flags points it elsewhere.
 * A projectId is always passed so the library never goes looking for one.
 */
import type { Storage as GoogleStorage, File, FileMetadata } from '@google-cloud/storage';
import { FeltError } from '../../shared/errors.ts';
import { redactSecrets } from '../secrets.ts';
import { StorageUnavailableError, notFound, objectTooLarge, preconditionFailed } from './errors.ts';
import { parseRetryAfter } from './retry.ts';
import type { Bucket, NameRange, ObjectInfo, PatchOptions, ReadOptions, Storage, WebsitePages, WriteOptions } from './types.ts';

export interface GcsOptions {
  projectId: string;
  apiEndpoint?: string;
  /** Per request, until the answer starts (default REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The longest wait between two tries of a request, in seconds (the library's default: 64). */
  maxRetryDelaySeconds?: number;
}

const PAGE_SIZE = 1000;

/**
 * How long one request may wait for the answer's first byte (the body, a download's included, streams after it).
 * The library documents 60 s as its default but sets none on this path: a server or proxy that took the request
 * and never answered held felt pull, publish, deploy, preview and retract forever, printing nothing. The library
 * tries a request that timed out again (four tries in all), then the call fails with one line.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
/** What a listing asks GCS for: exactly the fields toInfo() reads, and the next page's token. */
export const LISTING_FIELDS = 'items(name,size,md5Hash,crc32c,generation,contentType,contentEncoding,cacheControl,metadata),nextPageToken';

export class GcsStorage implements Storage {
  readonly kind = 'gcs' as const;
  private loaded: Promise<GoogleStorage> | undefined;

  constructor(private readonly options: GcsOptions) {}

  /**
   * The library's client, imported on first use: @google-cloud/storage and google-auth-library are some 150
   * modules (about 0.2 s of CPU to load), which a command that opens storage but never calls the bucket, or
   * fails before it, need not pay.
   */
  client(): Promise<GoogleStorage> {
    this.loaded ??= import('./gcsClient.ts').then(
      ({ Storage }) =>
        new Storage({
          projectId: this.options.projectId,
          timeout: this.options.timeoutMs ?? REQUEST_TIMEOUT_MS,
          ...(this.options.maxRetryDelaySeconds !== undefined ? { retryOptions: { maxRetryDelay: this.options.maxRetryDelaySeconds } } : {}),
          ...(this.options.apiEndpoint ? { apiEndpoint: this.options.apiEndpoint } : {}),
        }),
    );
    return this.loaded;
  }

  bucket(name: string): Bucket {
    return new GcsBucket(this, name);
  }

  async listBuckets(): Promise<string[]> {
    const [buckets] = await guard('listing buckets', async () => (await this.client()).getBuckets());
    return buckets.map((b) => b.name).sort();
  }
}

class GcsBucket implements Bucket {
  readonly location: string;

  constructor(
    private readonly storage: GcsStorage,
    readonly name: string,
  ) {
    this.location = `gs://${name}`;
  }

  private async file(name: string): Promise<File> {
    return (await this.storage.client()).bucket(this.name).file(name);
  }

  private async gcsBucket(name = this.name) {
    return (await this.storage.client()).bucket(name);
  }

  readonly website = {
    read: async (): Promise<WebsitePages> => {
      const [metadata] = await guard(this.location, async () => (await this.gcsBucket()).getMetadata());
      return { mainPageSuffix: metadata.website?.mainPageSuffix, notFoundPage: metadata.website?.notFoundPage };
    },
    write: async (pages: WebsitePages): Promise<void> => {
      await guard(this.location, async () => (await this.gcsBucket()).setMetadata({ website: pages }));
    },
  };

  async exists(): Promise<boolean> {
    const [exists] = await guard(this.location, async () => (await this.gcsBucket()).exists());
    return exists;
  }

  async create(): Promise<void> {
    await guard(this.location, async () => (await this.storage.client()).createBucket(this.name));
  }

  async list(prefix: string, range: NameRange = {}): Promise<ObjectInfo[]> {
    const bucket = await this.gcsBucket();
    const infos: ObjectInfo[] = [];
    let pageToken: string | undefined;
    do {
      // With a fields mask the library hands back each item's resource as it came instead of building a File
      // (and its ACL helpers) per object: a third of a 100,000-object listing's time went there. GCS then also
      // sends only the fields toInfo() reads.
      const [items, next, page] = await guard(this.location, () =>
        bucket.getFiles({
          prefix,
          autoPaginate: false,
          maxResults: PAGE_SIZE,
          pageToken,
          fields: LISTING_FIELDS,
          ...(range.from !== undefined ? { startOffset: range.from } : {}),
          ...(range.before !== undefined ? { endOffset: range.before } : {}),
        }),
      );
      // A page that is not the JSON API's (a proxy's or captive portal's HTML, sent with 200) comes back as no items
      // and no next page: taken as the end, it cut the listing short, and a --delete deleted what was past the cut.
      if (!isListingPage(page)) throw notAListing(this.location, prefix, page);
      for (const item of items as unknown as FileMetadata[]) infos.push(toInfo(item));
      pageToken = (next as { pageToken?: string } | null)?.pageToken;
    } while (pageToken);
    return infos;
  }

  async stat(name: string): Promise<ObjectInfo | undefined> {
    try {
      const [metadata] = await guard(`${this.location}/${name}`, async () => (await this.file(name)).getMetadata());
      return toInfo(metadata);
    } catch (error) {
      if (error instanceof FeltError && error.code === 'STORAGE_NOT_FOUND') return undefined;
      throw error;
    }
  }

  async read(name: string, { maxBytes }: ReadOptions): Promise<Buffer> {
    const where = `${this.location}/${name}`;
    const file = await this.file(name);
    // Streamed and counted: download() buffers the whole object, 600 MB where the listing said 100 bytes.
    const read = await guard(
      where,
      () =>
        new Promise<Buffer | undefined>((resolve, reject) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const stream = file.createReadStream({ validation: false });
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= maxBytes) return void chunks.push(chunk);
            stream.destroy();
            resolve(undefined);
          });
          stream.on('error', reject);
          stream.on('end', () => resolve(Buffer.concat(chunks)));
        }),
    );
    if (!read) throw objectTooLarge(where, maxBytes);
    return read;
  }

  async write(name: string, data: Buffer, options: WriteOptions): Promise<ObjectInfo> {
    const file = await this.file(name);
    await guard(`${this.location}/${name}`, () =>
      file.save(data, {
        resumable: options.resumable ?? false,
        contentType: options.contentType,
        // Bytes compressed by the caller: GCS stores them as they are and serves
        // them with Content-Encoding: gzip (decompressed for clients that do not
        // accept gzip). The md5 validated is the compressed bytes', as GCS reports it.
        metadata: {
          contentType: options.contentType,
          contentEncoding: options.contentEncoding,
          cacheControl: options.cacheControl,
          metadata: options.metadata ?? {},
        },
        preconditionOpts: options.ifGenerationMatch === undefined ? undefined : { ifGenerationMatch: options.ifGenerationMatch },
        validation: 'md5',
      }),
    );
    return toInfo(file.metadata);
  }

  async copyTo(name: string, target: Bucket, targetName: string, options: { ifGenerationMatch?: string | number } = {}): Promise<ObjectInfo> {
    const destination = (await this.gcsBucket(target.name)).file(targetName);
    const preconditionOpts = options.ifGenerationMatch === undefined ? undefined : { ifGenerationMatch: options.ifGenerationMatch };
    const [, response] = await guard(`${target.location}/${targetName}`, async () => (await this.file(name)).copy(destination, { preconditionOpts }));
    // The rewrite answer carries the new object's resource; the File object is not refreshed by the library.
    const written = (response as { resource?: FileMetadata } | undefined)?.resource;
    return written ? toInfo(written) : (await target.stat(targetName))!;
  }

  async patch(name: string, options: PatchOptions): Promise<ObjectInfo> {
    const [metadata] = await guard(`${this.location}/${name}`, async () =>
      (await this.file(name)).setMetadata({ contentType: options.contentType, cacheControl: options.cacheControl, metadata: options.metadata }),
    );
    return toInfo(metadata);
  }

  async delete(name: string, options: { ifGenerationMatch?: string | number } = {}): Promise<void> {
    await guard(`${this.location}/${name}`, async () =>
      (await this.file(name)).delete(options.ifGenerationMatch === undefined ? {} : { ifGenerationMatch: options.ifGenerationMatch }),
    );
  }
}

/** The JSON API's answer to a listing: an object, its `items` (absent when empty, or a fields mask's only field) a list of objects with a name. */
function isListingPage(page: unknown): boolean {
  if (!page || typeof page !== 'object' || Array.isArray(page)) return false;
  const items = (page as { items?: unknown }).items;
  return items === undefined || (Array.isArray(items) && items.every((item) => Boolean(item) && typeof (item as { name?: unknown }).name === 'string'));
}

function notAListing(location: string, prefix: string, page: unknown): FeltError {
  const got =
    typeof page === 'string' ? `${JSON.stringify(page.slice(0, 60))}${page.length > 60 ? '…' : ''}` : `a ${Array.isArray(page) ? 'list' : typeof page}`;
  return new FeltError(
    'STORAGE_FAILED',
    `${location}: a page of the listing of "${prefix}" is not a storage answer (got ${redactSecrets(got)}); nothing was changed`,
    {
      hint: 'a proxy or captive portal between felt and the storage answered instead: check the network (and --storage-endpoint), then run the same command again',
    },
  );
}

function toInfo(metadata: FileMetadata): ObjectInfo {
  const custom: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.metadata ?? {})) if (value !== null && value !== undefined) custom[key] = String(value);
  return {
    name: String(metadata.name),
    size: Number(metadata.size ?? 0),
    md5: String(metadata.md5Hash ?? ''),
    crc32c: metadata.crc32c ? String(metadata.crc32c) : undefined,
    generation: String(metadata.generation ?? ''),
    contentType: metadata.contentType,
    contentEncoding: metadata.contentEncoding || undefined,
    cacheControl: metadata.cacheControl,
    metadata: custom,
  };
}

/** Turns the library's errors into one-line FeltErrors that never carry credentials. */
async function guard<T>(where: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The JSON API's errors carry the status as `code`; a resumable upload's (gaxios) as `status`.
    const failure = error as { code?: unknown; status?: unknown; response?: { status?: unknown; headers?: unknown } };
    const status = Number(failure.code ?? failure.status ?? failure.response?.status);
    if (status === 404) throw notFound(where);
    if (status === 412) throw preconditionFailed(where);
    const reason = redactSecrets(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
    // node-fetch's timeout (REQUEST_TIMEOUT_MS), after the library's own tries: said as what it is, not as its URL.
    if ((error as { type?: unknown }).type === 'request-timeout') {
      throw new FeltError('STORAGE_FAILED', `${where}: no answer (the storage took the request and did not reply, after several tries)`, {
        cause: error,
        hint: 'check the network, a proxy between you and the storage, and STORAGE_EMULATOR_HOST or the storage endpoint; then run the same command again',
      });
    }
    if (status === 401 || status === 403) {
      throw new FeltError('STORAGE_DENIED', `${where}: access denied (${reason})`, { cause: error });
    }
    if (status === 429 || status >= 500 || TRANSIENT_NETWORK.has(String(failure.code))) {
      const retryAfterMs = parseRetryAfter(headerOf(failure.response?.headers, 'retry-after'));
      throw new StorageUnavailableError(where, Number.isNaN(status) ? reason : `${status} ${reason}`, retryAfterMs, error);
    }
    throw new FeltError('STORAGE_FAILED', `${where}: ${reason}`, { cause: error });
  }
}

/** A dropped or stalled connection: the request may well succeed if made again. */
const TRANSIENT_NETWORK = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ECONNABORTED']);

/** A response header from the library's error, whether it holds a plain object or a fetch Headers. */
function headerOf(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
