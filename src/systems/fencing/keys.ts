/**
 * The fencing directory's keys for one session (../shared/design/fencing-scripts.md "Keys").
 * The old pair carries no hash tag (two slots: every A/B script is cross-slot); the new pair shares
 * the tag `{<community>:<session>}` (one slot). A per-run key prefix for external endpoints is the
 * client's job (ioredis keyPrefix), so these are the logical names.
 */
export interface SessionRef {
  readonly community: string;
  readonly session: string;
}

export const KEY_ROLES = ['oldLease', 'oldGen', 'newLease', 'newGen'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];
export type SessionKeys = Readonly<Record<KeyRole, string>>;

function checkPart(what: string, v: string): void {
  // Braces would move the hash tag; an empty part would collide with another session.
  if (v === '' || /[{}]/.test(v)) throw new RangeError(`${what} must be non-empty and free of braces: ${JSON.stringify(v)}`);
}

export function oldLeaseKey(s: SessionRef): string {
  return `buzz:${s.community}:tunnel:${s.session}:lease`;
}
export function oldGenerationKey(s: SessionRef): string {
  return `buzz:${s.community}:tunnel:${s.session}:generation`;
}
export function newLeaseKey(s: SessionRef): string {
  return `buzz:tunnel:{${s.community}:${s.session}}:lease`;
}
export function newGenerationKey(s: SessionRef): string {
  return `buzz:tunnel:{${s.community}:${s.session}}:generation`;
}

export function sessionKeys(s: SessionRef): SessionKeys {
  checkPart('community', s.community);
  checkPart('session', s.session);
  return { oldLease: oldLeaseKey(s), oldGen: oldGenerationKey(s), newLease: newLeaseKey(s), newGen: newGenerationKey(s) };
}
