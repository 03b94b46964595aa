/**
 * The storage interface felt needs from a bucket: list with checksums, read,
 * write with content type, metadata and a generation precondition, copy,
 * patch and delete. Two real backends implement it: Google Cloud Storage
 * (gcs.ts) and a folder on disk that behaves as a bucket (local.ts).
 */
export interface ObjectInfo {
  name: string;
  size: number;
  /** Base64 MD5 of the content, as GCS reports md5Hash. */
  md5: string;
  /** Base64 big-endian CRC32C, as GCS reports crc32c. */
  crc32c?: string;
  /** Changes on every write; "0" in a precondition means "must not exist". */
  generation: string;
  contentType?: string;
  /** "gzip" when the stored bytes are gzip-compressed and served with Content-Encoding: gzip. */
  contentEncoding?: string;
  cacheControl?: string;
  metadata: Record<string, string>;
}

export interface WriteOptions {
  contentType: string;
  /** Set to "gzip" when `data` is already gzip-compressed. */
  contentEncoding?: string;
  cacheControl?: string;
  metadata?: Record<string, string>;
  /** Write only if the object's generation is this one (0: only if it does not exist). */
  ifGenerationMatch?: string | number;
  /** Use a resumable upload (large files); a single multipart request otherwise. */
  resumable?: boolean;
}

export interface PatchOptions {
  contentType?: string;
  cacheControl?: string;
  metadata?: Record<string, string>;
}

/** What a bucket serves for a folder's URL and for a missing object (GCS "website" settings). */
export interface WebsitePages {
  mainPageSuffix?: string;
  notFoundPage?: string;
}

/** Names from `from` (included) up to `before` (excluded), in GCS's order (UTF-8 bytes): a listing's startOffset and endOffset. */
export interface NameRange {
  from?: string;
  before?: string;
}

export interface Bucket {
  readonly name: string;
  /** Only where a bucket serves a website itself (GCS); a folder bucket has none. */
  readonly website?: { read(): Promise<WebsitePages>; write(pages: WebsitePages): Promise<void> };
  /** Where the bucket is, for messages: gs://name or a folder. */
  readonly location: string;
  exists(): Promise<boolean>;
  create(): Promise<void>;
  list(prefix: string, range?: NameRange): Promise<ObjectInfo[]>;
  stat(name: string): Promise<ObjectInfo | undefined>;
  /**
   * The object's bytes. One larger than `maxBytes` is refused (OBJECT_TOO_LARGE) after at most `maxBytes + 1`
   * bytes were read, whatever its listing said of its size: a listing can understate it. There is no unbounded
   * read: every caller names its limit (shared/limits.ts), and readWithin (errors.ts) turns the refusal into undefined.
   */
  read(name: string, options: ReadOptions): Promise<Buffer>;
  write(name: string, data: Buffer, options: WriteOptions): Promise<ObjectInfo>;
  /** Server-side copy to another bucket of the same storage. */
  copyTo(name: string, target: Bucket, targetName: string, options?: { ifGenerationMatch?: string | number }): Promise<ObjectInfo>;
  patch(name: string, options: PatchOptions): Promise<ObjectInfo>;
  delete(name: string, options?: { ifGenerationMatch?: string | number }): Promise<void>;
  /** Removes what killed writers left beside the objects of `prefix`'s folder (a folder bucket's temporaries and orphan sidecars); returns their names. */
  removeLeftovers?(prefix: string): Promise<string[]>;
}

export interface Storage {
  readonly kind: StorageKind;
  bucket(name: string): Bucket;
  listBuckets(): Promise<string[]>;
}

export const STORAGE_KINDS = ['local', 'gcs'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

export interface ReadOptions {
  /** The most bytes the caller takes: a limit of shared/limits.ts, or one derived from them. */
  maxBytes: number;
}
