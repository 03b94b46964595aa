/**
 * Range requests for `felt serve` (RFC 9110, 14): a download resumed, a video
 * or a PDF read a piece at a time. One byte range is answered with 206 and
 * that piece; ranges that overlap or touch count as one, as `send` coalesces
 * them; several separate ranges, a header felt cannot read, or a copy that
 * If-Range says has changed get the whole file with 200, which a client must
 * take; a range wholly past the end is 416. The ranges are of the file's own
 * bytes: the server answers a range unencoded (server.ts), as `send` behind
 * `compression` does, never a piece cut out of a brotli or gzip stream.
 *
 * Written here rather than taken from range-parser: its 1.x (what send uses)
 * answers a suffix longer than the file (`bytes=-5000` of 1,000 bytes) and a
 * reversed range (`bytes=9-2`) as unsatisfiable where RFC 9110 wants the whole
 * file and an ignored header, and 2.0, which fixes them, needs Node 22.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: RangeAnswer = { kind: 'whole' };

/** The validators of the file the request reads (the response's ETag and Last-Modified). */
export interface RangeValidators {
  etag: string;
  lastModified: string;
}

/**
 * What to send for a file of `size` bytes: the whole file, one part of it (`end` inclusive), or a 416. `now` is the
 * time the response is sent (its Date header), in milliseconds.
 */
export function chooseRange(headers: IncomingHttpHeaders, size: number, validators: RangeValidators, now: number): RangeAnswer {
  const header = headers.range;
  const ifRange = headers['if-range'];
  if (header === undefined || (ifRange !== undefined && (typeof ifRange !== 'string' || !rangeStillFits(ifRange, validators, now)))) return WHOLE;
  const ranges = parseByteRanges(header, size);
  if (ranges === 'unreadable' || ranges === 'empty file') return WHOLE;
  if (ranges.length === 0) return { kind: 'unsatisfiable' };
  const merged = coalesce(ranges);
  return merged.length === 1 ? { kind: 'part', ...merged[0]! } : WHOLE;
}

/** `Content-Range` of a part; without one, of a 416: an asterisk for the range, then the size. */
export function contentRange(size: number, part?: { start: number; end: number }): string {
  return part ? `bytes ${part.start}-${part.end}/${size}` : `bytes */${size}`;
}

/**
 * If-Range (RFC 9110, 13.1.5): the range applies only to the copy the client has. An entity tag matches by strong
 * comparison, which felt's tags never pass: they are weak, one tag for the file in every coding, so a range asked
 * with one gets the whole file. A date must be the Last-Modified date exactly, and that date must be a strong
 * validator (8.8.2.2): at least one second before the response's Date. Dates count whole seconds, so a file written
 * twice within the second of its Last-Modified has one date for both copies; a range of the second cut to complete
 * the first would splice two files into one download.
 */
function rangeStillFits(ifRange: string, { etag, lastModified }: RangeValidators, now: number): boolean {
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && !etag.startsWith('W/') && value === etag;
  const date = Date.parse(value);
  const modified = Date.parse(lastModified);
  return !Number.isNaN(date) && date === modified && modified + 1000 <= Math.floor(now / 1000) * 1000;
}

/**
 * The satisfiable ranges of a `bytes=` header, in the order asked; 'unreadable' for another unit or a malformed
 * range (the header is then ignored); 'empty file' for a suffix of an empty file, satisfiable with nothing to cut.
 */
function parseByteRanges(header: string, size: number): { start: number; end: number }[] | 'unreadable' | 'empty file' {
  const found = /^bytes=(.*)$/is.exec(header.trim());
  if (!found) return 'unreadable';
  const ranges: { start: number; end: number }[] = [];
  let listed = 0;
  let emptySuffix = false;
  // A list may hold empty elements ("bytes=0-1,,5-"); spaces and tabs around each are allowed.
  for (const element of found[1]!.split(',').map((item) => item.replace(/^[ \t]+|[ \t]+$/g, ''))) {
    if (!element) continue;
    listed++;
    const spec = /^(\d*)-(\d*)$/.exec(element);
    if (!spec || (!spec[1] && !spec[2])) return 'unreadable';
    if (!spec[1]) {
      // The last n bytes: all of them when the file is shorter; none (unsatisfiable) when n is 0.
      const length = Number(spec[2]);
      if (length > 0 && size === 0) emptySuffix = true;
      if (length > 0 && size > 0) ranges.push({ start: Math.max(size - length, 0), end: size - 1 });
      continue;
    }
    const start = Number(spec[1]);
    const last = spec[2] ? Number(spec[2]) : Infinity;
    // A last position before the first is malformed; a first position at or past the end, unsatisfiable.
    if (last < start) return 'unreadable';
    if (start < size) ranges.push({ start, end: Math.min(last, size - 1) });
  }
  if (listed === 0) return 'unreadable';
  return ranges.length === 0 && emptySuffix ? 'empty file' : ranges;
}

/** Ranges that overlap or touch, as one; the others as asked. */
function coalesce(ranges: { start: number; end: number }[]): { start: number; end: number }[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged = [{ ...sorted[0]! }];
  for (const range of sorted.slice(1)) {
    const current = merged[merged.length - 1]!;
    if (range.start > current.end + 1) merged.push({ ...range });
    else current.end = Math.max(current.end, range.end);
  }
  return merged;
}
