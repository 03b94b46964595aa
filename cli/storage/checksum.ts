/**
 * The checksums GCS keeps for every object, computed the same way locally so
 * that "has this changed?" is one string comparison.
 */
import { createHash } from 'node:crypto';

export function md5Base64(data: Buffer | string): string {
  return createHash('md5').update(data).digest('base64');
}

/**
 * CRC32C (Castagnoli) as GCS reports it: base64 of the big-endian 32-bit value. Computed here rather than with
 * @google-cloud/storage's CRC32C class (the same table method) because importing that class loaded the whole
 * storage client and its ~150 files into every command that hashes a file, the local-folder backend included.
 */
export function crc32cBase64(data: Buffer | string): string {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const table = crc32cTable();
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

let table: Uint32Array | undefined;

/** The 256-entry table of the reflected polynomial 0x82f63b78, made on first use (no work at import). */
function crc32cTable(): Uint32Array {
  if (table) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}
