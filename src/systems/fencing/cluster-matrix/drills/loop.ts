/**
 * The fencing C scripts in a loop through the harness's cluster client, one loop per session, each
 * call's outcome recorded as the client reports it: acquire as a fresh owner, release what was
 * acquired; a lease found held by an earlier owner (its release's outcome was unknown) is released
 * in that owner's name. `resend` is the deliberately broken client: a call that failed without a
 * reply is sent again once and reported by the second answer (what ioredis does by default).
 */
import type { ValkeyClient } from '../../../../valkey/index.js';
import { cClient, type FencingClient } from '../../clients/index.js';
import type { FencingScripts } from '../../scripts.js';
import type { ConfirmOptions } from '../../../../valkey/scripts/eval-confirmed.js';
import type { SessionRef } from '../../keys.js';
import { sleep } from '../stats.js';
import { outcomeOfFailure, outcomeOfReply, type CallRecord, type Op, type Reply } from './outcomes.js';

const FAILURE_BACKOFF_MS = 150;

export interface LoopOptions {
  readonly resend: boolean;
  /** Pause between calls of one session (ms). */
  readonly pauseMs: number;
  /** The replication remedy: every call confirmed by WAIT, else reported unknown. */
  readonly confirmReplicas?: ConfirmOptions;
}

export interface SessionLoop {
  readonly session: string;
  readonly calls: CallRecord[];
  /** Failures that are not faults (a script error, CROSSSLOT): the errors column. */
  readonly errors: string[];
  stop(): Promise<void>;
}

async function once(client: FencingClient, op: Op, owner: string, gen: number | undefined): Promise<Reply> {
  if (op === 'acquire') {
    const r = await client.acquire(owner, { ttlMs: 120_000, maxGen: 1_000_000_000 });
    if (r.kind === 'exhausted') throw new Error('generation space exhausted');
    return r.kind === 'ok' ? { kind: 'ok', gen: r.gen } : { kind: 'held', owner: r.owner, gen: r.gen };
  }
  const r = await client.release(owner, gen!);
  return r.kind === 'released' ? { kind: 'released' } : { kind: 'notheld' };
}

export function startSessionLoop(conn: ValkeyClient, scripts: FencingScripts, ref: SessionRef, opts: LoopOptions): SessionLoop {
  const session = ref.session;
  const client = cClient({ conn, scripts, session: ref, ...(opts.confirmReplicas ? { confirmReplicas: opts.confirmReplicas } : {}) });
  const calls: CallRecord[] = [];
  const errors: string[] = [];
  let running = true;
  const call = async (op: Op, owner: string, gen?: number): Promise<CallRecord> => {
    const startedAt = Date.now();
    let rec: CallRecord;
    try {
      const reply = await once(client, op, owner, gen);
      rec = { session, op, owner, ...(gen !== undefined ? { gen } : {}), outcome: outcomeOfReply(reply), reply, startedAt, endedAt: Date.now() };
    } catch (err) {
      const f = outcomeOfFailure(err);
      if (!f.fault) errors.push(`${session} ${op}: ${f.failure}`);
      if (opts.resend && f.outcome === 'unknown') {
        await sleep(200);
        try {
          const reply = await once(client, op, owner, gen);
          rec = { session, op, owner, ...(gen !== undefined ? { gen } : {}), outcome: outcomeOfReply(reply), reply, startedAt, endedAt: Date.now() };
          calls.push(rec);
          return rec;
        } catch (again) {
          const f2 = outcomeOfFailure(again);
          rec = { session, op, owner, ...(gen !== undefined ? { gen } : {}), outcome: f2.outcome === 'unknown' ? 'refused' : f2.outcome, failure: f2.failure, startedAt, endedAt: Date.now() };
          calls.push(rec);
          return rec;
        }
      }
      rec = { session, op, owner, ...(gen !== undefined ? { gen } : {}), outcome: f.outcome, failure: f.failure, startedAt, endedAt: Date.now() };
    }
    calls.push(rec);
    return rec;
  };
  const done = (async () => {
    for (let i = 0; running; i++) {
      const owner = `p${i}`;
      const a = await call('acquire', owner);
      // Back off after a failure, as a relay pod would: also keeps the judge's unknown branches few.
      if (!a.reply) await sleep(FAILURE_BACKOFF_MS);
      if (a.reply?.kind === 'ok') {
        await sleep(opts.pauseMs);
        // Release until the answer is known: an unknown release leaves the lease in doubt.
        await call('release', owner, a.reply.gen);
      } else if (a.reply?.kind === 'held') {
        await call('release', a.reply.owner, a.reply.gen);
      }
      await sleep(opts.pauseMs);
    }
  })();
  return {
    session,
    calls,
    errors,
    async stop() {
      running = false;
      await done;
    },
  };
}
