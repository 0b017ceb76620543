/** The G2 matrix rows, in the order the issue gives them (the drills last: they kill nodes). */
import type { G2Row } from '../types.js';
import { registryRow } from './registry.js';
import { pubsubRow } from './pubsub.js';
import { presenceRow } from './presence.js';
import { routingRow, routingTlsRow } from './routing.js';
import { failoverRow } from './failover.js';
import { replicaRow } from './replica.js';

export const G2_ROWS: readonly G2Row[] = [registryRow, pubsubRow, presenceRow, routingRow, routingTlsRow, replicaRow, failoverRow] as readonly G2Row[];

export function g2Row(name: string): G2Row | undefined {
  return G2_ROWS.find((r) => r.name === name);
}
