/**
 * What `felt publish` published last, kept in the production bucket itself
 * (issue 17): per object, the production generation its copy made and the
 * MD5 it wrote. A production object whose generation is no longer the
 * recorded one was changed there (a hotfix); a recorded object that is gone
 * was deleted there. Either is a conflict the plan shows and publish never
 * undoes without --force. Objects published before the record existed are
 * not in it: they are tracked from their next publish.
 */
import { FeltError } from '../shared/errors.ts';
import { LIMIT_HINT, LIMITS, formatBytes } from '../shared/limits.ts';
import { isNotFound, isPreconditionFailed, readOrRefuse } from './storage/errors.ts';
import { compareNames } from './storage/nameRanges.ts';
import type { Bucket } from './storage/types.ts';

/** Outside articles/, so `felt pull` never takes it for an article. */
export const PUBLISH_RECORD = 'felt/publish-record.json';

export interface RecordEntry {
  generation: string;
  md5: string;
}

export interface PublishRecord {
  /** Absent: no publish has written a record in this bucket yet. */
  objects: Map<string, RecordEntry> | undefined;
  /** The record object's generation ("0": none), for a write that must not lose a concurrent publish's entries. */
  generation: string;
}

export async function readPublishRecord(prod: Bucket): Promise<PublishRecord> {
  const info = await prod.stat(PUBLISH_RECORD);
  if (!info) return { objects: undefined, generation: '0' };
  const where = `${prod.location}/${PUBLISH_RECORD}`;
  // Far larger than a record of 100,000 articles (shared/limits.ts): refused from the stat, or while it is read.
  const tooLarge = () =>
    new FeltError('PUBLISH_RECORD_INVALID', `${where} is larger than the limit of ${formatBytes(LIMITS.stateRecordBytes)} for a publish record`, {
      file: where,
      hint: `restore it, or delete it to start a new record (production changes made before are then not detected; ${LIMIT_HINT})`,
    });
  if (info.size > LIMITS.stateRecordBytes) throw tooLarge();
  let data: Buffer;
  try {
    data = await readOrRefuse(prod, PUBLISH_RECORD, LIMITS.stateRecordBytes, tooLarge);
  } catch (error) {
    // Deleted between the stat and the read: as if there were none.
    if (isNotFound(error)) return { objects: undefined, generation: '0' };
    throw error;
  }
  let objects: Map<string, RecordEntry> | undefined;
  try {
    objects = entriesOf(JSON.parse(data.toString('utf8')));
  } catch {
    objects = undefined;
  }
  if (!objects)
    throw new FeltError('PUBLISH_RECORD_INVALID', `${prod.location}/${PUBLISH_RECORD} is not a publish record (JSON with version 1 and objects)`, {
      file: `${prod.location}/${PUBLISH_RECORD}`,
    });
  return { objects, generation: info.generation };
}

/**
 * A parsed record's entries, or undefined when it is not a record (version 1, `updated`, and objects whose
 * entries each have a non-empty generation and md5). Checked by hand, in one pass that also fills the Map:
 * at 100,000 articles a zod record schema and then `new Map(Object.entries())` cost a warm publish about a
 * second of CPU.
 */
function entriesOf(json: unknown): Map<string, RecordEntry> | undefined {
  if (!isObject(json) || json.version !== 1 || typeof json.updated !== 'string' || !isObject(json.objects)) return undefined;
  const objects = json.objects;
  const entries = new Map<string, RecordEntry>();
  // JSON.parse makes plain objects: for…in sees exactly their own keys, without an array of pairs per entry.
  for (const name in objects) {
    const entry = objects[name];
    if (!isObject(entry)) return undefined;
    const { generation, md5 } = entry;
    if (typeof generation !== 'string' || !generation || typeof md5 !== 'string' || !md5) return undefined;
    entries.set(name, { generation, md5 });
  }
  return entries;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies `changes` (an entry, or undefined to forget the object) to the
 * record as it is now in the bucket (or as `known`, read earlier, when it
 * has not changed since), written with a generation precondition: a publish
 * that ran meanwhile keeps its entries.
 */
export async function updatePublishRecord(prod: Bucket, changes: Map<string, RecordEntry | undefined>, known?: PublishRecord): Promise<void> {
  if (!changes.size) return;
  for (let attempt = 1; ; attempt++) {
    // The record publish read for its plan, when given, is tried first: at 100,000 articles it is 12 MB to
    // download and parse again. Written with its generation as the precondition, it cannot lose an entry:
    // if another publish wrote the record since, the write is refused and the record is read afresh.
    const current = attempt === 1 && known ? known : await readPublishRecord(prod);
    const objects = new Map(current.objects ?? []);
    for (const [name, entry] of changes) {
      if (entry) objects.set(name, entry);
      else objects.delete(name);
    }
    // In GCS's name order (compareNames): localeCompare took three times as long on 100,000 names.
    const record = { version: 1, updated: new Date().toISOString(), objects: Object.fromEntries([...objects].sort(([a], [b]) => compareNames(a, b))) };
    try {
      await prod.write(PUBLISH_RECORD, Buffer.from(`${JSON.stringify(record, null, 1)}\n`), {
        contentType: 'application/json',
        cacheControl: 'no-store',
        ifGenerationMatch: current.generation,
      });
      return;
    } catch (error) {
      if (!isPreconditionFailed(error) || attempt >= 5) throw error;
    }
  }
}
