import { closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * A script as Valkey sees it: bytes. Lua 5.1 is 8-bit clean (UTF-8, Latin-1, a NUL or an ESC inside a
 * string literal are all fine), so a script is read as bytes and handed to the parser as a "byte
 * string" (one character per byte, U+0000–U+00FF: luaparse's pseudo-latin1 mode). What a script
 * cannot be is refused in one line: over the size limit, UTF-16 or UTF-32 text (with or without a
 * byte-order mark), or UTF-8 with a byte-order mark (Valkey's compiler fails on it: "unexpected
 * symbol near '�'"). Text shown in a message is decoded back from UTF-8 with every control byte
 * escaped (displayText), so a script can never drive the terminal.
 */

/** Far above any real script (the largest of the public corpora checked is ≈40 KB), and what the checker gets through in ≈10 s (a 100 MB file took 2.5 min and then ran out of memory); the trace reader has its own (64 MiB). */
export const MAX_SCRIPT_BYTES = 1024 * 1024;

export type ScriptBytes = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** Reads `path` (a regular file, at most `max` bytes) as a byte string; never a half-read file. */
export function readScript(path: string, max = MAX_SCRIPT_BYTES): ScriptBytes {
  const shown = displayText(path);
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return { ok: false, message: `${shown} is not a regular file` };
    size = st.size;
  } catch (err) {
    return { ok: false, message: `cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (size > max) return { ok: false, message: `${shown} is ${size} bytes, over the ${max}-byte limit for a script` };
  let buf: Buffer;
  try {
    // Read at most max+1 bytes: a file that grew after stat is still refused, not read whole.
    const fd = openSync(path, 'r');
    try {
      const b = Buffer.alloc(Math.min(size, max) + 1);
      let n = 0;
      for (let got = -1; got !== 0 && n < b.length; n += got) got = readSync(fd, b, n, b.length - n, n);
      buf = b.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    return { ok: false, message: `cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (buf.length > max) return { ok: false, message: `${shown} is over the ${max}-byte limit for a script` };
  return decodeScript(buf, shown);
}

/** The byte string of a script's bytes, or why they are not a script (`shown` names it). */
export function decodeScript(buf: Buffer, shown: string): ScriptBytes {
  const encoding = textEncoding(buf);
  if (encoding === 'utf-8-bom') return { ok: false, message: `${shown} begins with a UTF-8 byte-order mark, which Valkey's Lua compiler refuses ("unexpected symbol"): save it without one` };
  if (encoding !== undefined) return { ok: false, message: `${shown} is ${encoding} text: Valkey runs a script's bytes as Lua source; save it as UTF-8 (or ASCII)` };
  return { ok: true, text: buf.toString('latin1') };
}

/** The encoding a script must not be in, when its bytes say so; undefined for anything Lua can read. */
export function textEncoding(buf: Buffer): string | undefined {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8-bom';
  if (buf[0] === 0xff && buf[1] === 0xfe && buf[2] === 0 && buf[3] === 0) return 'UTF-32 (little-endian, with a byte-order mark)';
  if (buf[0] === 0 && buf[1] === 0 && buf[2] === 0xfe && buf[3] === 0xff) return 'UTF-32 (big-endian, with a byte-order mark)';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'UTF-16 (little-endian, with a byte-order mark)';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'UTF-16 (big-endian, with a byte-order mark)';
  // Without a mark: ASCII-range text in UTF-16 has a NUL in every other byte.
  const head = buf.subarray(0, 4096);
  if (head.length >= 8) {
    let even = 0;
    let odd = 0;
    for (let i = 0; i < head.length; i++) if (head[i] === 0) i % 2 === 0 ? even++ : odd++;
    const half = head.length / 2;
    if (odd > half * 0.6 && even < half * 0.1) return 'UTF-16 (little-endian, no byte-order mark)';
    if (even > half * 0.6 && odd < half * 0.1) return 'UTF-16 (big-endian, no byte-order mark)';
  }
  return undefined;
}

/**
 * A byte string (the script's own text) as a message may show it: valid UTF-8 sequences decoded,
 * every other byte as `\xNN`, and every control character escaped (displayText).
 */
export function displayBytes(s: string): string {
  let out = '';
  const bytes = Buffer.from(s, 'latin1');
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const ch = len === 1 ? String.fromCharCode(b) : len > 1 ? safeDecode(bytes.subarray(i, i + len), len) : undefined;
    if (ch === undefined) {
      out += `\\x${b.toString(16).padStart(2, '0')}`;
      i++;
    } else {
      out += displayText(ch);
      i += len;
    }
  }
  return out;
}

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * A string (a path, a parser's message) as a message may show it: every control character — C0,
 * DEL, C1; tab and newline as `\t`, `\n` — escaped, so nothing a script or a file name holds can
 * move the cursor, clear the screen or end the line.
 */
export function displayText(s: string): string {
  return s.replace(/[\x00-\x1f\x7f-\x9f]/g, (ch) => NAMED[ch] ?? `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function safeDecode(seq: Buffer, len: number): string | undefined {
  if (seq.length !== len) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(seq);
  } catch {
    return undefined;
  }
}
