/**
 * Where the pause state lives: the flag and its version share one hash tag (one slot), so that
 * MULTI/EXEC writes them together and one MGET reads them together on a cluster too. The
 * invalidation channel is classic pub/sub: on a cluster a PUBLISH reaches every node's subscribers.
 */
export interface PauseKeys {
  readonly paused: string;
  readonly version: string;
  readonly channel: string;
}

/** `prefix` is the topology's key prefix ('' on owned nodes, a per-run prefix on external endpoints). */
export function pauseKeys(prefix = '', name = 'outgress'): PauseKeys {
  return {
    paused: `${prefix}pause:{${name}}:paused`,
    version: `${prefix}pause:{${name}}:version`,
    channel: `${prefix}pause:${name}:events`,
  };
}

/** One committed pause state. Immutable: a replica swaps the whole object, never edits it. */
export interface PauseState {
  readonly paused: boolean;
  readonly version: number;
}

/** The event published after a committed write: `{"paused":true,"version":7}`. */
export function encodeEvent(s: PauseState): string {
  return JSON.stringify({ paused: s.paused, version: s.version });
}

/** A malformed event is ignored (null): the reconciler repairs whatever it carried. */
export function decodeEvent(text: string): PauseState | null {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null) return null;
    const { paused, version } = v as Record<string, unknown>;
    if (typeof paused !== 'boolean' || typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) return null;
    return Object.freeze({ paused, version });
  } catch {
    return null;
  }
}

/** MGET [paused, version] → the state (a missing version is 0, "never paused"). */
export function decodeStored(paused: string | null, version: string | null): PauseState {
  const v = version === null ? 0 : Number(version);
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`pause version key holds '${version}', not a version`);
  return Object.freeze({ paused: paused === '1', version: v });
}
