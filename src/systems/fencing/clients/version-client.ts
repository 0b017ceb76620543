/**
 * The typed client of one script version: what a pod running image O, A, B or C calls. Each method
 * runs that version's script for the operation with exactly the KEYS the table prescribes.
 */
import { evalScript } from '../../../valkey/scripts/index.js';
import type { ValkeyClient } from '../../../valkey/index.js';
import type { Phase } from '../state.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import { evalConfirmed, type ConfirmOptions } from '../../../valkey/scripts/eval-confirmed.js';
import { KEYS_OF, type FencingOp, type FencingScriptName, type FencingScripts } from '../scripts.js';
import {
  int,
  parseAcquire,
  parseLookup,
  parseRelease,
  parseRenew,
  parseValidate,
  type AcquireResult,
  type LookupResult,
  type ReleaseResult,
  type RenewResult,
  type ValidateResult,
} from './replies.js';

/** One script call as sent: what T3 inspects after the door (no old key among the KEYS). */
export interface ScriptCall {
  readonly script: FencingScriptName;
  readonly keys: readonly string[];
}

export interface FencingClient {
  readonly version: Phase;
  acquire(owner: string, opts: { ttlMs: number; maxGen: number }): Promise<AcquireResult>;
  renew(owner: string, gen: number, ttlMs: number): Promise<RenewResult>;
  release(owner: string, gen: number): Promise<ReleaseResult>;
  lookup(): Promise<LookupResult>;
  knownGeneration(): Promise<number>;
  validate(owner: string, gen: number): Promise<ValidateResult>;
}

export interface ClientContext {
  readonly conn: ValkeyClient;
  readonly scripts: FencingScripts;
  readonly session: SessionRef;
  /** Called before every script call (T3 bookkeeping, tracing). */
  readonly onCall?: (call: ScriptCall) => void;
  /**
   * Opt-in failover remedy (default off: every call is a plain EVALSHA, as before). Each script
   * call is followed by `WAIT <replicas> <timeoutMs>` on the node that ran it; a reply is returned
   * only when WAIT confirms it, else the call fails with ReplicaUnconfirmedError (an
   * OutcomeUnknownError): an acquire's generation is then never handed out. Every op, not only
   * acquire: a release or a 'held' answer read from a primary may vanish in a failover too.
   */
  readonly confirmReplicas?: ConfirmOptions;
}

export function fencingClient(version: Phase, ctx: ClientContext): FencingClient {
  const keys = sessionKeys(ctx.session);
  const call = (op: FencingOp, args: readonly (string | number)[]) => {
    const script: FencingScriptName = `${version}/${op}`;
    const declared = KEYS_OF[version][op].map((role) => keys[role]);
    ctx.onCall?.({ script, keys: declared });
    const run = ctx.confirmReplicas ? evalConfirmed(ctx.conn, ctx.scripts.get(script), declared, args, ctx.confirmReplicas) : evalScript(ctx.conn, ctx.scripts.get(script), declared, args);
    return run.then((raw) => ({ raw, script }));
  };
  return {
    version,
    acquire: async (owner, o) => {
      const { raw, script } = await call('acquire', [owner, o.ttlMs, o.maxGen]);
      return parseAcquire(raw, script);
    },
    renew: async (owner, gen, ttlMs) => {
      const { raw, script } = await call('renew', [owner, gen, ttlMs]);
      return parseRenew(raw, script);
    },
    release: async (owner, gen) => {
      const { raw, script } = await call('release', [owner, gen]);
      return parseRelease(raw, script);
    },
    lookup: async () => {
      const { raw, script } = await call('lookup', []);
      return parseLookup(raw, script);
    },
    knownGeneration: async () => {
      const { raw, script } = await call('known_generation', []);
      return int(raw, script);
    },
    validate: async (owner, gen) => {
      const { raw, script } = await call('validate_fenced_header', [owner, gen]);
      return parseValidate(raw, script);
    },
  };
}

/** The per-version clients, by name: what an O, A, B or C image links. */
export const oClient = (ctx: ClientContext): FencingClient => fencingClient('O', ctx);
export const aClient = (ctx: ClientContext): FencingClient => fencingClient('A', ctx);
export const bClient = (ctx: ClientContext): FencingClient => fencingClient('B', ctx);
export const cClient = (ctx: ClientContext): FencingClient => fencingClient('C', ctx);
