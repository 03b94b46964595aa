/**
 * The publish record (cli/publishRecord.ts) at a magazine's scale, and a damaged one: at 100,000 articles the
 * record is 12 MB that every warm publish reads and writes back (checked by hand in one pass, not by a zod
 * record schema), and a record that is not one is still refused with one line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISH_RECORD, readPublishRecord, updatePublishRecord } from '../../cli/publishRecord.ts';
import { LocalStorage } from '../../cli/storage/local.ts';
import type { Bucket } from '../../cli/storage/types.ts';
import { FeltError } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';

let root: string;
let prod: Bucket;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'felt-publish-record-'));
  prod = new LocalStorage(root).bucket('mag');
  await prod.create();
});
afterAll(() => rm(root, { recursive: true, force: true }));

const write = (text: string) => prod.write(PUBLISH_RECORD, Buffer.from(text), { contentType: 'application/json' });

describe('the publish record', () => {
  it('reads and updates a record of 100,000 articles, every entry kept', async () => {
    const objects: Record<string, { generation: string; md5: string }> = {};
    for (const locale of ['en_US', 'ru_RU', 'tr_TR'])
      for (let n = 0; n < 33_334; n++)
        objects[`articles/${locale}/article-${String(n).padStart(6, '0')}.md`] = { generation: String(1_700_000_000_000_000 + n), md5: `md5-${n}==` };
    await write(`${JSON.stringify({ version: 1, updated: '2026-11-24T00:00:00.000Z', objects }, null, 1)}\n`);
    const record = await readPublishRecord(prod);
    const tonight = new Map(Array.from({ length: 60 }, (_, i) => [`articles/en_US/night-${i}.md`, { generation: String(i + 1), md5: `new-${i}==` }] as const));
    await updatePublishRecord(prod, tonight, record);
    const after = await readPublishRecord(prod);
    expect(after.objects!.size).toBe(100_062);
    expect(after.objects!.get('articles/en_US/night-7.md')).toEqual({ generation: '8', md5: 'new-7==' });
    expect(after.objects!.get('articles/tr_TR/article-033333.md')).toEqual({ generation: String(1_700_000_000_033_333), md5: 'md5-33333==' });
  });

  it('stays far under its limit at 100,000 articles, each with its cover picture and a slug as long as generate makes (the figure in shared/limits.ts)', async () => {
    const objects = new Map<string, { generation: string; md5: string }>();
    for (const locale of ['en_US', 'ru_RU', 'tr_TR'])
      for (let n = 0; n < 33_334; n++) {
        const slug = `article-${n}-`.padEnd(90, 'x');
        const entry = { generation: String(1_700_000_000_000_000 + n), md5: 'AAAAAAAAAAAAAAAAAAAAAA==' };
        objects.set(`articles/${locale}/${slug}.md`, entry).set(`images/${locale}/${slug}.png`, entry);
      }
    await prod.delete(PUBLISH_RECORD).catch(() => undefined);
    await updatePublishRecord(prod, objects);
    const size = (await prod.stat(PUBLISH_RECORD))!.size;
    // 37 MB, written as publish writes it: the limit leaves more than three times that.
    expect(size).toBeGreaterThan(30 * 1024 * 1024);
    expect(size * 3).toBeLessThan(LIMITS.stateRecordBytes);
    expect((await readPublishRecord(prod)).objects!.size).toBe(200_004);
  }, 60_000);

  it.each([
    ['not JSON', '{"version": 1,'],
    ['another version', '{"version": 2, "updated": "x", "objects": {}}'],
    ['objects as a list', '{"version": 1, "updated": "x", "objects": []}'],
    ['an entry without its MD5', '{"version": 1, "updated": "x", "objects": {"articles/en_US/a.md": {"generation": "1"}}}'],
    ['an empty generation', '{"version": 1, "updated": "x", "objects": {"articles/en_US/a.md": {"generation": "", "md5": "m"}}}'],
  ])('refuses a record that is %s, naming it', async (_, text) => {
    await write(text);
    const error = await readPublishRecord(prod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeltError);
    expect((error as FeltError).code).toBe('PUBLISH_RECORD_INVALID');
    expect((error as FeltError).message).toContain(`${PUBLISH_RECORD} is not a publish record`);
  });
});
