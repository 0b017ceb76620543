import { credentialSpans, type EndpointUrl } from './endpoint-url.js';

/**
 * Endpoint URLs may carry a password (`redis://user:pass@host:port`, `redis://:pass@host:port`).
 * Every message built from an endpoint or an environment value goes through maskSecrets before it
 * is printed or written into a report, and the CLI masks everything it prints as a last line of
 * defence (src/cli/main.ts).
 *
 * Two layers, both applied to every text:
 * 1. The passwords this process has read (rememberEndpointSecrets: every endpoint the environment
 *    check and the commands parse) are replaced wherever they stand, as written and decoded, and in
 *    the forms a report gives them (percent-encoded, JSON-, HTML- and XML-escaped). Only passwords of
 *    at least MIN_REMEMBERED characters: a short one would hide every occurrence of a common word.
 * 2. Any endpoint written in the text has its password hidden by the parser's own rule
 *    (credentialSpans, src/core/endpoint-url.ts), whichever process wrote it.
 */

export const MASK = '***';

/** Shorter passwords are hidden by the endpoint rule (2) only. */
export const MIN_REMEMBERED = 6;

/** Each remembered form and what replaces it. */
const remembered = new Map<string, string>();
let ordered: [string, string][] = [];

function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The forms a secret takes in the outputs: as is, percent-encoded, inside a JSON string, HTML/XML-escaped. */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    encodeURIComponent(secret),
    json,
    htmlEscape(secret),
    htmlEscape(json),
    secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
  ];
}

function remember(form: string, replacement: string): boolean {
  if (remembered.has(form)) return false;
  remembered.set(form, replacement);
  return true;
}

function reorder(): void {
  // Longest first: a form that contains another is replaced whole.
  ordered = [...remembered].sort((a, b) => b[0].length - a[0].length);
}

/** Remembers one secret (and its escaped forms) for layer 1. */
export function rememberSecret(secret: string): void {
  if (secret.length < MIN_REMEMBERED) return;
  let added = false;
  for (const f of forms(secret)) if (f.length >= MIN_REMEMBERED) added = remember(f, MASK) || added;
  if (added) reorder();
}

/**
 * Remembers an endpoint's password, as decoded and as written, and its userinfo as written with
 * the '@' that ends it (`alice:p w@` → `alice:***@`, whatever the password's length: with its ':' and
 * '@' it is specific enough to replace wherever it stands, e.g. in a scheme-less `user:p w@host:port`).
 */
export function rememberEndpointSecrets(e: Pick<EndpointUrl, 'password' | 'writtenUserinfo'>): void {
  if (e.password !== undefined) rememberSecret(e.password);
  const info = e.writtenUserinfo;
  if (info === undefined) return;
  const colon = info.indexOf(':');
  rememberSecret(info.slice(colon + 1));
  const user = colon < 0 ? '' : info.slice(0, colon + 1);
  if (info.length >= 3 && remember(`${info}@`, `${user}${MASK}@`)) reorder();
}

/** For tests: forget every remembered secret. */
export function forgetSecrets(): void {
  remembered.clear();
  ordered = [];
}

/**
 * Replaces every password in `text` with `***`: the remembered ones wherever they stand, and the
 * password part of every endpoint written in it: `redis://u:s3cret@h:1` → `redis://u:***@h:1`,
 * `redis://:p@ss w/rd@h:1` → `redis://:***@h:1`, `u:s3cret@h:1` → `u:***@h:1`. A userinfo without a
 * ':' (`redis://s3cret@h:1`) is masked whole: it is often a password.
 */
export function maskSecrets(text: string): string {
  let out = text;
  for (const [form, replacement] of ordered) if (out.includes(form)) out = out.split(form).join(replacement);
  const spans = credentialSpans(out).filter((s) => out.slice(s.start, s.end) !== MASK);
  if (spans.length === 0) return out;
  spans.sort((a, b) => a.start - b.start);
  let result = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    result += out.slice(at, s.start) + MASK;
    at = s.end;
  }
  return result + out.slice(at);
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
