/** The cluster matrix's rows, in the order the design gives them (the drills last: they kill nodes). */
import type { MatrixRow } from '../types.js';
import { registryRow } from './registry.js';
import { pubsubRow } from './pubsub.js';
import { presenceRow } from './presence.js';
import { routingRow, routingTlsRow } from './routing.js';
import { failoverRow } from './failover.js';
import { replicaRow } from './replica.js';

export const MATRIX_ROWS: readonly MatrixRow[] = [registryRow, pubsubRow, presenceRow, routingRow, routingTlsRow, replicaRow, failoverRow] as readonly MatrixRow[];

export function matrixRow(name: string): MatrixRow | undefined {
  return MATRIX_ROWS.find((r) => r.name === name);
}
