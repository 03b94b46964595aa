/** The checksums felt compares with a bucket's: CRC32C (Castagnoli) as GCS gives it, base64 of the big-endian value. */
import { describe, expect, it } from 'vitest';
import { crc32cBase64, md5Base64 } from '../../../cli/storage/checksum.ts';

const base64Of = (value: number) => Buffer.from([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]).toString('base64');

describe('crc32cBase64', () => {
  it('gives the standard check values of CRC-32C', () => {
    // RFC 3720 (iSCSI) and the CRC catalogue: "123456789" → 0xE3069283; 32 zero bytes → 0x8A9136AA; 32 bytes of 0xFF → 0x62A8AB43.
    expect(crc32cBase64('123456789')).toBe(base64Of(0xe3069283));
    expect(crc32cBase64(Buffer.alloc(32))).toBe(base64Of(0x8a9136aa));
    expect(crc32cBase64(Buffer.alloc(32, 0xff))).toBe(base64Of(0x62a8ab43));
    expect(crc32cBase64('')).toBe(base64Of(0));
  });

  it('hashes a string as its UTF-8 bytes', () => {
    expect(crc32cBase64('ставки')).toBe(crc32cBase64(Buffer.from('ставки', 'utf8')));
    expect(md5Base64('ставки')).toBe(md5Base64(Buffer.from('ставки', 'utf8')));
  });
});
