/** Typed replies of the fencing scripts, parsed from what EVAL returns (arrays of strings and integers). */
export type AcquireResult =
  | { readonly kind: 'ok'; readonly gen: number }
  | { readonly kind: 'held'; readonly owner: string; readonly gen: number }
  | { readonly kind: 'exhausted'; readonly maxGen: number };
export type RenewResult =
  | { readonly kind: 'ok'; readonly where: 'old' | 'new' }
  | { readonly kind: 'migrated'; readonly gen: number }
  | { readonly kind: 'conflict'; readonly owner: string; readonly gen: number }
  | { readonly kind: 'lost' };
export type ReleaseResult = { readonly kind: 'released'; readonly where: 'old' | 'new' } | { readonly kind: 'notheld' };
export type LookupResult = { readonly kind: 'none' } | { readonly kind: 'lease'; readonly owner: string; readonly gen: number; readonly where: 'old' | 'new' };
export interface ValidateResult {
  readonly valid: boolean;
  readonly reason: 'ok' | 'no-lease' | 'stale' | 'not-owner';
}

/** A script reply that does not have the documented shape: a defect in the script, never retried. */
export class ScriptReplyError extends Error {
  override readonly name = 'ScriptReplyError';
}

function tuple(raw: unknown, script: string): unknown[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new ScriptReplyError(`${script}: expected an array reply, got ${JSON.stringify(raw)}`);
  return raw;
}
function str(v: unknown, script: string): string {
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  throw new ScriptReplyError(`${script}: expected a string, got ${JSON.stringify(v)}`);
}
export function int(v: unknown, script: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw new ScriptReplyError(`${script}: expected an integer, got ${JSON.stringify(v)}`);
  return n;
}
function where(v: unknown, script: string): 'old' | 'new' {
  const w = str(v, script);
  if (w !== 'old' && w !== 'new') throw new ScriptReplyError(`${script}: expected old|new, got ${w}`);
  return w;
}
function bad(script: string, raw: unknown): never {
  throw new ScriptReplyError(`${script}: unexpected reply ${JSON.stringify(raw)}`);
}

export function parseAcquire(raw: unknown, script: string): AcquireResult {
  const t = tuple(raw, script);
  switch (str(t[0], script)) {
    case 'ok':
      return { kind: 'ok', gen: int(t[1], script) };
    case 'held':
      return { kind: 'held', owner: str(t[1], script), gen: int(t[2], script) };
    case 'exhausted':
      return { kind: 'exhausted', maxGen: int(t[1], script) };
    default:
      return bad(script, raw);
  }
}

export function parseRenew(raw: unknown, script: string): RenewResult {
  const t = tuple(raw, script);
  switch (str(t[0], script)) {
    case 'ok':
      return { kind: 'ok', where: where(t[1], script) };
    case 'migrated':
      return { kind: 'migrated', gen: int(t[1], script) };
    case 'conflict':
      return { kind: 'conflict', owner: str(t[1], script), gen: int(t[2], script) };
    case 'lost':
      return { kind: 'lost' };
    default:
      return bad(script, raw);
  }
}

export function parseRelease(raw: unknown, script: string): ReleaseResult {
  const t = tuple(raw, script);
  switch (str(t[0], script)) {
    case 'released':
      return { kind: 'released', where: where(t[1], script) };
    case 'notheld':
      return { kind: 'notheld' };
    default:
      return bad(script, raw);
  }
}

export function parseLookup(raw: unknown, script: string): LookupResult {
  const t = tuple(raw, script);
  switch (str(t[0], script)) {
    case 'none':
      return { kind: 'none' };
    case 'lease':
      return { kind: 'lease', owner: str(t[1], script), gen: int(t[2], script), where: where(t[3], script) };
    default:
      return bad(script, raw);
  }
}

export function parseValidate(raw: unknown, script: string): ValidateResult {
  const t = tuple(raw, script);
  const reason = str(t[1], script);
  if (reason !== 'ok' && reason !== 'no-lease' && reason !== 'stale' && reason !== 'not-owner') return bad(script, raw);
  return { valid: int(t[0], script) === 1, reason };
}
