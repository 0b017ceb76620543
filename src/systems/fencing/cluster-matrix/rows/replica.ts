/**
 * Row "replica": replica connection repair after a replica restarts in place (the redis-rs #2120
 * path, and the read-offload fallback's dependency), with the command client and the subscription
 * client running beside it: each must recover, or not notice, on its own.
 */
import { replicaDrill } from '../drills/replica.js';
import { RestartUnsupportedError } from '../drills/restart.js';
import { REPAIR_BOUND_MS } from '../drills/replica.js';
import { notRun, verdictOf, type G2Row, type RowOutcome } from '../types.js';

/** library-default is red only when the restart falls between two reads (ioredis then never re-adds the node): not used in the test suite. */
export const REPLICA_VARIANTS = ['repair', 'pinned', 'library-default'] as const;
export type ReplicaVariant = (typeof REPLICA_VARIANTS)[number];

export const replicaRow: G2Row<ReplicaVariant> = {
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
    if (r.repairMs === null) silent.push(`the replica-read client did not read from ${r.replica} again within ${REPAIR_BOUND_MS} ms of its restart (reads silently stayed off it or failed)`);
    const errors = [...r.commandErrors.map((e) => `command client: ${e}`)];
    if (r.lateReadErrors > 0) errors.push(`${r.lateReadErrors} replica reads still failed more than 1 s after the replica was back`);
    return {
      errors: verdictOf(errors),
      silentlyWrong: verdictOf(silent),
      figures: {
        'replica back (link up) ms': r.backMs,
        'reads from it again ms': r.repairMs ?? `> ${REPAIR_BOUND_MS}`,
        reads: r.reads,
        'read errors during restart': r.readErrors,
        'wrong reads': r.wrongReads.length,
        'command client longest gap ms': r.commandMaxGapMs,
        'messages published / lost': `${r.published}/${r.lostMessages.length}`,
      },
      notes: [`restarted ${r.replica} in place (DEBUG RESTART: same PID)`],
    };
  },
};
