/**
 * Endpoint URLs may carry a password (`redis://user:pass@host:port`, `redis://:pass@host:port`).
 * Every message built from an endpoint or an environment value goes through maskSecrets before it
 * is printed or written into a report, and the CLI masks everything it prints as a last line of
 * defence (src/cli/main.ts).
 */

export const MASK = '***';

/** `scheme://userinfo@`: userinfo runs to the last '@' of the token (a password may hold one). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/,'"`<>]*)@/gi;
/** Scheme-less `user:pass@host` after a delimiter (start, space, comma, '=', quote, bracket). */
const BARE_USERINFO = /(^|[\s,=('"`[<])([^\s,=@/:'"`<>]*):([^\s,@/'"`<>]+)@/g;

/**
 * Replaces the password part of every URL (and of a scheme-less `user:pass@host`) with `***`:
 * `redis://u:s3cret@h:1` → `redis://u:***@h:1`, `redis://:s3cret@h:1` → `redis://:***@h:1`.
 * A URL whose userinfo has no ':' (`redis://s3cret@h:1`) is masked whole: it is often a password.
 */
export function maskSecrets(text: string): string {
  if (!text.includes('@')) return text;
  return text
    .replace(URL_USERINFO, (_m, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':');
      return `${scheme}${colon < 0 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`}@`;
    })
    .replace(BARE_USERINFO, (m, lead: string, user: string, pass: string) => (pass === MASK ? m : `${lead}${user}:${MASK}@`));
}

/** maskSecrets applied to every string inside a JSON-like value (arrays and plain objects). */
export function maskDeep<T>(value: T): T {
  if (typeof value === 'string') return maskSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v);
    return out as T;
  }
  return value;
}

/** An error's message, masked (for messages that embed another error). */
export function maskedMessage(err: unknown): string {
  return maskSecrets(err instanceof Error ? err.message : String(err));
}
