/** The operator scripts: backfill, reverse merge and the lease census (run by the deploy pipeline). */
import { evalScript } from '../../../valkey/scripts/index.js';
import type { ValkeyClient } from '../../../valkey/index.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import { int } from './replies.js';

export interface OperatorClient {
  /** newGen := max(oldGen, newGen); returns the new counter. */
  backfill(session: SessionRef): Promise<number>;
  /** oldGen := max(oldGen, newGen); returns the old counter. */
  reverseMerge(session: SessionRef): Promise<number>;
  /** Live leases among the given lease keys, counted on the real keyspace. */
  census(leaseKeys: readonly string[]): Promise<number>;
}

export function operatorClient(conn: ValkeyClient, scripts: FencingScripts): OperatorClient {
  const counters = (s: SessionRef) => {
    const k = sessionKeys(s);
    return [k.oldGen, k.newGen];
  };
  return {
    backfill: async (s) => int(await evalScript(conn, scripts.get('ops/backfill'), counters(s), []), 'ops/backfill'),
    reverseMerge: async (s) => int(await evalScript(conn, scripts.get('ops/reverse_merge'), counters(s), []), 'ops/reverse_merge'),
    census: async (leaseKeys) => {
      if (leaseKeys.length === 0) return 0;
      return int(await evalScript(conn, scripts.get('ops/census'), leaseKeys, []), 'ops/census');
    },
  };
}
