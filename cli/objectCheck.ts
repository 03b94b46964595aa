/**
 * One home for how publish and pull take an object from a bucket (issue 17):
 * its size from the listing first (nothing over the limit is downloaded),
 * then at most the limit's bytes whatever the listing said, then the bytes
 * against the listing's MD5 (the bytes checked are the bytes written), then
 * what the object must be: a valid article (articleCheck.ts) or a PNG
 * picture. Each refusal is one reason, worded alike for both commands.
 */
import { LIMIT_HINT, LIMITS, formatBytes, tooLarge } from '../shared/limits.ts';
import type { ContentLocale } from '../shared/types.ts';
import { articleObjectProblems, describeProblems } from './articleCheck.ts';
import { isPng } from './generate/images.ts';
import type { Project } from './project.ts';
import { md5Base64 } from './storage/checksum.ts';
import { readWithin } from './storage/errors.ts';
import type { Bucket } from './storage/types.ts';

/** The reason for bytes whose MD5 is not the listing's: the object was replaced between the listing and the read. */
export const CHANGED_WHILE_READ = 'changed while it was read; run again';
export const NOT_A_PNG = 'not a PNG picture';

/** An object refused from its listing's size, before a byte of it is downloaded. */
export function listedTooLarge(size: number, limit: number): string {
  return `object ${tooLarge(size, limit)} (${LIMIT_HINT})`;
}

/** An object found larger than the limit while it was read: its listing understated it. */
export function readTooLarge(limit: number): string {
  return `object larger than ${formatBytes(limit)}, whatever its listing says (${LIMIT_HINT})`;
}

/** What the object must be: an article, checked as `felt check` checks one (shown as `shownAs` in its problems), or a cover picture. */
export type ObjectKind = { picture: true } | { picture?: false; shownAs: string; locale: ContentLocale; project: Pick<Project, 'authors' | 'categories'> };

/** The checked bytes, or why the object is refused; `changed` when reading it again may well succeed. */
export type CheckedObject = { data: Buffer } | { problem: string; changed: boolean };

export function limitOf(kind: ObjectKind): number {
  return kind.picture ? LIMITS.pictureBytes : LIMITS.articleBytes;
}

/**
 * Reads and checks a listed object (`size` as listed, when known; `md5` as listed). `packed`: its bytes
 * already at hand (a state snapshot's), checked as a download would be.
 */
export async function readCheckedObject(
  bucket: Bucket,
  object: { name: string; md5: string; size?: number },
  kind: ObjectKind,
  packed?: Buffer,
): Promise<CheckedObject> {
  const limit = limitOf(kind);
  const refused = (problem: string, changed = false): CheckedObject => ({ problem, changed });
  if (object.size !== undefined && object.size > limit) return refused(listedTooLarge(object.size, limit));
  // Read to the limit, whatever the listing said: a listing can understate an object (600 MB listed as 100 bytes).
  const data = packed ?? (await readWithin(bucket, object.name, limit));
  if (!data) return refused(readTooLarge(limit));
  if (md5Base64(data) !== object.md5) return refused(CHANGED_WHILE_READ, true);
  if (kind.picture) return isPng(data) ? { data } : refused(NOT_A_PNG);
  const problems = articleObjectProblems(data, kind.shownAs, kind.locale, kind.project);
  return problems.length ? refused(`invalid article: ${describeProblems(problems)}`) : { data };
}
