/**
 * The records of submitted batches, kept in the dev bucket as
 * batches/{id}.json so `felt generate --collect` can run later, from
 * anywhere, and a direct run can see that a batch of its run is pending. A
 * record that cannot be read (cut short, edited by hand) is named and skipped:
 * one bad file does not stop every later --batch and --collect (issue 17).
 */
import { z } from 'zod';
import { LIMIT_HINT, LIMITS, formatBytes } from '../../shared/limits.ts';
import type { Reporter } from '../report.ts';
import { isNotFound, readWithin } from '../storage/errors.ts';
import type { Bucket } from '../storage/types.ts';

const recordSchema = z.object({
  batchId: z.string().min(1),
  inputFileId: z.string(),
  request: z.object({
    locale: z.enum(['en_US', 'ru_RU', 'tr_TR']),
    category: z.string().optional(),
    subcategory: z.string().optional(),
    count: z.number().int().min(1),
    date: z.string(),
    runId: z.string().optional(),
  }),
  model: z.string().min(1),
  slots: z.array(z.number().int().min(0)),
  /** Where each slot's article belongs, fixed when the batch was planned (absent in records of older versions). */
  targets: z.array(z.object({ slot: z.number().int().min(0), category: z.string(), subcategory: z.string() })).optional(),
  status: z.enum(['submitted', 'collected', 'failed', 'expired', 'cancelled']),
  submittedAt: z.string(),
  collectedAt: z.string().optional(),
});

export type BatchRecord = z.infer<typeof recordSchema>;

export const RECORDS = 'batches/';
const JSON_TYPE = 'application/json';

export async function readRecords(bucket: Bucket, reporter: Reporter): Promise<(BatchRecord & { generation: string })[]> {
  const records = [];
  for (const object of await bucket.list(RECORDS)) {
    let record: BatchRecord;
    // Larger than any batch's record (shared/limits.ts): skipped as unreadable, from its listing or while it is read.
    // A storage failure is not the record's fault: it stops the command, rather than advise deleting a good record.
    let data: Buffer | undefined;
    try {
      data = object.size > LIMITS.stateRecordBytes ? undefined : await readWithin(bucket, object.name, LIMITS.stateRecordBytes);
    } catch (error) {
      // Deleted since the listing: as if it had not been listed.
      if (isNotFound(error)) continue;
      throw error;
    }
    try {
      if (!data) throw new Error(`larger than the limit of ${formatBytes(LIMITS.stateRecordBytes)} for a record, ${LIMIT_HINT}`);
      const parsed = recordSchema.safeParse(JSON.parse(data.toString('utf8')));
      if (!parsed.success) throw new Error(`${parsed.error.issues[0]!.path.join('.') || 'the record'}: ${parsed.error.issues[0]!.message}`);
      record = parsed.data;
    } catch (error) {
      reporter.note(`skipped ${bucket.location}/${object.name}: not a batch record (${(error as Error).message}); delete it, or submit its batch again`);
      continue;
    }
    records.push({ ...record, generation: object.generation });
  }
  return records;
}

export async function saveRecord(bucket: Bucket, record: BatchRecord & { generation?: string }): Promise<void> {
  const { generation, ...data } = record;
  await bucket.write(`${RECORDS}${record.batchId}.json`, Buffer.from(JSON.stringify(data, null, 2)), {
    contentType: JSON_TYPE,
    ifGenerationMatch: generation ?? 0,
  });
}
