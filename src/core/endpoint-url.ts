/**
 * The one reading of a Valkey endpoint, for connecting (src/valkey/external.ts) and for masking
 * (src/core/secrets.ts): both find the password with the same rule, so the mask can never stop
 * where the connection went on reading.
 *
 *   [scheme://][[user]:password@]host:port[/]        scheme: redis, valkey (plain), rediss, valkeys (TLS)
 *
 * - The userinfo runs to the LAST `@`: an endpoint has no path, query or fragment, so what follows
 *   the last `@` is always `host:port`. `/`, `?`, `#`, `@`, `:`, quotes, spaces, `<`, `>`, a backtick
 *   and any Unicode character may stand in a password as they are.
 * - The username ends at the FIRST `:` of the userinfo (a username cannot hold a `:`; a password can).
 * - `%XX` (two hex digits) is always a percent-escape, decoded as UTF-8; a `%` not followed by two hex
 *   digits stands for itself. So a password that contains `%41` literally must be written `%2541`.
 * - In a seed list (FENCECHECK_VALKEY_CLUSTER) a `,` separates seeds: in a password write it `%2C`.
 *
 * Other readers differ on the unencoded forms: valkey-cli/redis-cli (parseRedisUri) end the userinfo
 * at the FIRST `@` and refuse a `%` without two hex digits; ioredis (WHATWG URL) ends the authority
 * at the first `/`, `?` or `#`, takes the last `@` before it, and throws on a lone `%`. A URL means
 * the same to all three only when its password is percent-encoded (encodeURIComponent).
 *
 * Error messages never carry a password: they show the input only from its last `@` on.
 */

export type EndpointScheme = 'redis' | 'rediss' | 'valkey' | 'valkeys';

const PLAIN_SCHEMES: readonly EndpointScheme[] = ['redis', 'valkey'];
const TLS_SCHEMES: readonly EndpointScheme[] = ['rediss', 'valkeys'];

export interface EndpointUrl {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  /** rediss:// or valkeys://: the connection must use TLS. */
  readonly tls: boolean;
  /** The scheme as given (lower case), or undefined for a bare `host:port`. */
  readonly scheme?: EndpointScheme;
  /** The userinfo exactly as written (before decoding), when there is one: what a mask must hide. */
  readonly writtenUserinfo?: string;
}

/** A malformed endpoint: bad input. The message never contains the password. */
export class EndpointSyntaxError extends RangeError {
  override readonly name = 'EndpointSyntaxError';
}

const SCHEME_AT_START = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^:/@[\]\s,]+):(\d{1,5})\/?$/;

/** What may be shown of an endpoint text in an error: nothing before its last `@` (where a password would be). */
export function safeEndpointText(text: string): string {
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  const scheme = SCHEME_AT_START.exec(text)?.[0] ?? '';
  return `${scheme}***${text.slice(at)}`;
}

/**
 * Splits `userinfo@hostport` at the last `@` (the rule the mask shares). `rest` is the text after
 * the scheme.
 */
export function splitAtLastAt(rest: string): { userinfo?: string; hostport: string } {
  const at = rest.lastIndexOf('@');
  return at < 0 ? { hostport: rest } : { userinfo: rest.slice(0, at), hostport: rest.slice(at + 1) };
}

/** Splits a userinfo at its first `:`: user, then password (undefined without a `:`). */
export function splitUserinfo(userinfo: string): { user: string; password?: string } {
  const colon = userinfo.indexOf(':');
  return colon < 0 ? { user: userinfo } : { user: userinfo.slice(0, colon), password: userinfo.slice(colon + 1) };
}

/** `%XX` decoded (as UTF-8 bytes), any other character kept; undefined when the bytes are not UTF-8. */
export function percentDecode(s: string): string | undefined {
  if (!s.includes('%')) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; ) {
    const hex = s[i] === '%' ? /^[0-9A-Fa-f]{2}$/.exec(s.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 3;
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

const EXPECTED = 'expected host:port or redis://[user:password@]host:port; rediss:// for TLS';

/** One endpoint. Throws EndpointSyntaxError (never naming the password). */
export function parseEndpointUrl(text: string): EndpointUrl {
  const t = text.trim();
  return parseShown(t, `'${safeEndpointText(t)}'`);
}

/** `shown` is how errors name the input (already safe to print). */
function parseShown(t: string, shown: string): EndpointUrl {
  if (t === '') throw new EndpointSyntaxError(`an empty endpoint (${EXPECTED})`);
  const m = SCHEME_AT_START.exec(t);
  let scheme: EndpointScheme | undefined;
  if (m) {
    const s = m[1]!.toLowerCase();
    if (![...PLAIN_SCHEMES, ...TLS_SCHEMES].includes(s as EndpointScheme))
      throw new EndpointSyntaxError(`unknown scheme '${m[1]}://' in ${shown} (redis://, valkey://, or rediss://, valkeys:// for TLS)`);
    scheme = s as EndpointScheme;
  }
  const rest = m ? t.slice(m[0].length) : t;
  const { userinfo, hostport } = splitAtLastAt(rest);
  const hp = HOST_PORT.exec(hostport);
  if (!hp) throw new EndpointSyntaxError(`not a valkey endpoint: ${shown} (${EXPECTED})`);
  const port = Number(hp[2]);
  if (!(port >= 1 && port <= 65535)) throw new EndpointSyntaxError(`bad port ${hp[2]} in ${shown} (1 to 65535)`);
  const host = hp[1]!.replace(/^\[|\]$/g, '');
  const tls = scheme !== undefined && TLS_SCHEMES.includes(scheme);
  const base = { host, port, tls, ...(scheme !== undefined && { scheme }) };
  if (userinfo === undefined) return base;
  const { user, password } = splitUserinfo(userinfo);
  if (password === undefined) throw new EndpointSyntaxError(`the credentials in ${shown} need a ':' (redis://user:password@host:port or redis://:password@host:port)`);
  const username = percentDecode(user);
  const decoded = percentDecode(password);
  if (username === undefined || decoded === undefined) throw new EndpointSyntaxError(`the credentials in ${shown} are not UTF-8 once their %XX escapes are decoded`);
  return { ...base, ...(username !== '' && { username }), password: decoded, writtenUserinfo: userinfo };
}

/** A comma-separated seed list (FENCECHECK_VALKEY_CLUSTER); each seed as parseEndpointUrl reads it. */
export function parseEndpointList(text: string): EndpointUrl[] {
  const out: EndpointUrl[] = [];
  const pieces = text.split(',');
  let offset = 0;
  pieces.forEach((raw, i) => {
    const end = offset + raw.length;
    offset = end + 1;
    const piece = raw.trim();
    if (piece === '') return;
    // A piece without '@' before a later '@' may be the head of a password cut at a ',': never shown.
    const mayHoldPassword = !piece.includes('@') && text.indexOf('@', end) >= 0;
    const shown = mayHoldPassword ? "(not shown: it may hold part of a password; a ',' inside a password must be written %2C)" : `'${safeEndpointText(piece)}'`;
    const which = pieces.length > 1 ? `seed ${i + 1} of ${pieces.length}: ` : '';
    try {
      out.push(parseShown(piece, shown));
    } catch (err) {
      if (err instanceof EndpointSyntaxError) throw new EndpointSyntaxError(`${which}${err.message}`);
      throw err;
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Finding passwords in free text, by the same rule (for src/core/secrets.ts).

/** A part of a text to hide: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

const SCHEME_ANYWHERE = /[A-Za-z][A-Za-z0-9+.-]*:\/\//g;
/** `@host:port` (what follows the userinfo in an endpoint), or `@host` then a delimiter as a weaker sign. */
const AFTER_AT_STRONG = /^@(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+|\*\*\*|…):\d/;
const AFTER_AT_WEAK = /^@(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+|…)/;
const BARE_TOKEN_START = /[\s,=('"`[<>]/;

/**
 * The password spans of every endpoint written in `text`, by the parser's rule: after `scheme://`
 * the userinfo runs to the last `@` that is followed by `host:port` (within the line, before the
 * next `scheme://`; without one, the last `@` followed by a host name), and the password starts
 * after its first `:` (a userinfo without `:` is hidden whole). A bare `user:password@host:port`
 * (no scheme) starts after a delimiter (space, `,`, `=`, quote, bracket) and cannot hold a space.
 */
export function credentialSpans(text: string): Span[] {
  if (!text.includes('@')) return [];
  const spans: Span[] = [];
  const schemes: { start: number; end: number }[] = [];
  for (const m of text.matchAll(SCHEME_ANYWHERE)) {
    // `redis://alice://@h:1` is one URL whose password is `//`: a scheme glued to the previous one's
    // userinfo (no `@`, no delimiter between) is part of it, not a URL of its own.
    const prev = schemes.at(-1);
    if (prev !== undefined && !/[@\s,"'<>()[\]{}]/.test(text.slice(prev.end, m.index))) continue;
    schemes.push({ start: m.index, end: m.index + m[0].length });
  }
  schemes.forEach((s, k) => {
    const lineEnd = text.indexOf('\n', s.end);
    const limit = Math.min(lineEnd < 0 ? text.length : lineEnd, schemes[k + 1]?.start ?? text.length);
    const region = text.slice(s.end, limit);
    const at = lastAtFollowedBy(region, AFTER_AT_STRONG) ?? lastAtFollowedBy(region, AFTER_AT_WEAK);
    if (at === undefined) return;
    spans.push(passwordSpan(s.end, region.slice(0, at)));
  });
  // Bare user:password@host:port outside every scheme URL.
  const covered = (i: number) => schemes.some((s, k) => i >= s.start && i < (schemes[k + 1]?.start ?? text.length) && !text.slice(s.end, i).includes('\n'));
  for (const m of text.matchAll(/@(?=(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):\d)/g)) {
    if (covered(m.index)) continue;
    let start = m.index;
    while (start > 0 && !BARE_TOKEN_START.test(text[start - 1]!)) start--;
    const userinfo = text.slice(start, m.index);
    if (!userinfo.includes(':') || userinfo.includes('@') || userinfo === '') continue;
    spans.push(passwordSpan(start, userinfo));
  }
  return spans;
}

function lastAtFollowedBy(region: string, after: RegExp): number | undefined {
  for (let i = region.lastIndexOf('@'); i >= 0; i = i === 0 ? -1 : region.lastIndexOf('@', i - 1)) if (after.test(region.slice(i))) return i;
  return undefined;
}

function passwordSpan(start: number, userinfo: string): Span {
  const colon = userinfo.indexOf(':');
  return colon < 0 ? { start, end: start + userinfo.length } : { start: start + colon + 1, end: start + userinfo.length };
}
