/**
 * Cluster slot of a key, as Valkey computes it: CRC16 (XMODEM) of the key's bytes, or of its hash
 * tag, mod 16384. The tag is the text between the FIRST '{' and the first '}' after it, and only
 * when that text is not empty ("{}" and "{" without "}" hash the whole key).
 */
export const SLOT_COUNT = 16384;

const TABLE: Uint16Array = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    t[i] = crc;
  }
  return t;
})();

function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}

/** Slot of a key given as raw bytes (what the server sees). */
export function keySlotOfBytes(bytes: Uint8Array): number {
  const open = bytes.indexOf(0x7b); // '{'
  if (open !== -1) {
    const close = bytes.indexOf(0x7d, open + 1); // '}'
    if (close > open + 1) return crc16(bytes, open + 1, close) % SLOT_COUNT;
  }
  return crc16(bytes, 0, bytes.length) % SLOT_COUNT;
}

/** Slot of a key; the string is encoded as UTF-8, as ioredis sends it. */
export function keySlot(key: string): number {
  return keySlotOfBytes(Buffer.from(key, 'utf8'));
}

/** The hash tag Valkey would use for a key, or null when the whole key is hashed. */
export function hashTag(key: string): string | null {
  const open = key.indexOf('{');
  if (open === -1) return null;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : null;
}
