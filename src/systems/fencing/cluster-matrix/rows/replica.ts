/**
 * Row "replica": the read-offload fallback's replica reads while a replica loses its link and
 * restarts in place (the redis-rs #2120 path), its resync held until the drill releases it, with
 * the command client and the subscription client running beside it: each must recover, or not
 * notice, on its own. Every variant meets the same held resync, so a client that reads from a
 * replica that has not caught up reads a nil on every run, not only when the timing lines up.
 */
import { replicaDrill, REPAIR_BOUND_MS } from '../drills/replica.js';
import { RestartUnsupportedError } from '../drills/restart.js';
import { notRun, verdictOf, type MatrixRow, type RowOutcome } from '../types.js';

/**
 * guarded: the design to ship (replica-reader.ts); no-admission: its server half alone (red: nils
 * while connected but behind); unguarded: the repair with stale reads allowed (red: nils from the
 * restarted replica); pinned: one connection never re-established (red: never read from again);
 * library-default: ioredis as it comes (not in the test suite).
 */
export const REPLICA_VARIANTS = ['guarded', 'no-admission', 'unguarded', 'pinned', 'library-default'] as const;
export type ReplicaVariant = (typeof REPLICA_VARIANTS)[number];

export const replicaRow: MatrixRow<ReplicaVariant> = {
  name: 'replica',
  surface: 'Failure drills (replica restart, connection repair)',
  topology: { kind: 'cluster', shards: 3, replicasPerShard: 1 },
  variants: REPLICA_VARIANTS,
  async run(ctx, variant): Promise<RowOutcome> {
    let r;
    try {
      r = await replicaDrill(ctx.topology, { client: variant });
    } catch (err) {
      if (err instanceof RestartUnsupportedError) return { errors: notRun(err.message), silentlyWrong: notRun(err.message), figures: {}, notes: [] };
      throw err;
    }
    const silent = [...r.wrongReads, ...r.lostMessages];
    if (r.repairMs === null) silent.push(`the replica-read client did not read from ${r.replica} again within ${REPAIR_BOUND_MS} ms of its resync's release (reads silently stayed off it or failed)`);
    const errors = [...r.commandErrors.map((e) => `command client: ${e}`)];
    if (r.lateReadErrors > 0) errors.push(`${r.lateReadErrors} replica reads still failed more than 1 s after the replica was back`);
    return {
      errors: verdictOf(errors),
      silentlyWrong: verdictOf(silent),
      figures: {
        'replica back (answers) ms': r.backMs,
        'back in the read pool ms': r.rejoinedMs ?? 'never',
        'resync held ms': r.heldMs,
        'link up after the handshake release ms': r.linkUpMs,
        'connected but behind ms': r.connectedHeldMs,
        'reads from it again after release ms': r.repairMs ?? `> ${REPAIR_BOUND_MS}`,
        reads: r.reads,
        'read errors': r.readErrors,
        'wrong reads': r.wrongReads.length,
        'wrong reads before / link down / restarted / behind / released': r.wrongByPhase.join('/'),
        'reads refused by the replica': r.refusedByReplica,
        'reads re-sent to the primary': r.fallbacks,
        'command client longest gap ms': r.commandMaxGapMs,
        'messages published / lost': `${r.published}/${r.lostMessages.length}`,
      },
      notes: [`${r.replica}: link held, restarted in place (DEBUG RESTART: same PID) from a snapshot older than the keys; handshake then stream released after the client's reads`],
    };
  },
};
