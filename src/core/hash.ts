import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** SHA-256 of a file's bytes, hex: the hash every evidence record pins a spec, config or dump to. */
export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function sha256Text(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
