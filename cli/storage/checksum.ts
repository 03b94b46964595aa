/**
 * The checksums GCS keeps for every object, computed the same way locally so
 * that "has this changed?" is one string comparison.
 */
import { createHash } from 'node:crypto';
import { CRC32C } from '@google-cloud/storage';

export function md5Base64(data: Buffer | string): string {
  return createHash('md5').update(data).digest('base64');
}

export function crc32cBase64(data: Buffer | string): string {
  const crc = new CRC32C();
  crc.update(typeof data === 'string' ? Buffer.from(data) : data);
  return crc.toString();
}
